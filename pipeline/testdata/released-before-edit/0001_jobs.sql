-- The job core: the jobs projection and the append-only run journal.

-- The database clock every statement orders runs by. A test kit may freeze it
-- for one database by setting pipe.clock.frozen_at (or shift it by offset);
-- in production the table is empty and pipe.now() is now().
create table pipe.clock (
    one       boolean     primary key default true check (one),
    frozen_at timestamptz,
    shift     interval    not null default '0'
);

create function pipe.now() returns timestamptz
    language sql stable
    as $$ select coalesce((select coalesce(c.frozen_at, now() + c.shift) from pipe.clock c), now()) $$;

create table pipe.jobs (
    id           uuid        primary key,
    run_id       uuid        not null,
    name         text        not null,
    queue        text        not null,
    tenant       text        not null default '',
    idem_key     text        not null,
    input        jsonb       not null,
    state        text        not null
        check (state in ('ready', 'delayed', 'running', 'suspended', 'done', 'failed', 'dead', 'cancelled')),
    attempt      integer     not null default 0,
    max_attempts integer     not null check (max_attempts >= 1),
    claims       integer     not null default 0,
    worker_id    text,
    lease_until  timestamptz,
    run_at       timestamptz not null default pipe.now(),
    created_at   timestamptz not null default pipe.now(),
    started_at   timestamptz,
    finished_at  timestamptz,
    has_steps    boolean     not null default false,
    result       jsonb,
    last_error   jsonb,
    progress     jsonb
);

-- One live row per (name, tenant, key): enqueue dedupes on it.
create unique index jobs_live_key on pipe.jobs (name, tenant, idem_key)
    where state in ('ready', 'delayed', 'running', 'suspended');

create unique index jobs_run_id on pipe.jobs (run_id);

-- The claim reads this index only.
create index jobs_claimable on pipe.jobs (queue, run_at)
    where state in ('ready', 'delayed');

-- Lapsed leases are found here.
create index jobs_leased on pipe.jobs (lease_until)
    where state = 'running';

-- The journal: every state change of a run appends one row here, in the
-- statement that made the change. Never updated, never deleted but by retention.
create table pipe.events (
    job_id  uuid        not null,
    seq     bigint      generated always as identity,
    kind    text        not null,
    attempt integer     not null default 0,
    step    text,
    data    jsonb,
    at      timestamptz not null default pipe.now(),
    primary key (job_id, seq)
);
