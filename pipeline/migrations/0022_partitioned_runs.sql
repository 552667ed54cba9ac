-- The job store at volume. Runs live in pipe.runs, partitioned by state:
--
--   pipe.runs_open  the open runs (ready, delayed, running, suspended): a
--                   plain table, the small hot set every claim, enqueue and
--                   settle works on; a claim never reads a finished run.
--   pipe.runs_done  done and cancelled runs, by the UTC day they finished
--                   (pipe.runs_done_YYYYMMDD), kept for the done retention.
--   pipe.runs_dead  dead and failed runs, by the UTC week (from Monday) they
--                   finished (pipe.runs_dead_YYYYMMDD), kept for the dead
--                   retention.
--
-- A settle moves a run's row from runs_open to its day's partition (an
-- update of state and finished_at through pipe.runs moves it), and its
-- journal rows with it: pipe.run_events is partitioned the same way by its
-- run's end (run_state, run_finished_at). Retention detaches and drops
-- whole partitions — never a DELETE of finished runs — so it leaves no dead
-- tuples behind, and the partitions are made ahead of need by
-- pipe.ensure_run_partitions (maintenance and every worker's start call it).
-- Each finished tree keeps an "old" edge partition (from MINVALUE) below its
-- first day for runs that finished before it (runs moved from an earlier
-- layout, clocks set back in tests).
--
-- pipe.jobs and pipe.events stay as views over the runs and their journal,
-- for every read (the operator's list and show, an application's own SQL).
-- A database that already holds runs keeps its finished ones in
-- pipe.jobs_legacy and pipe.events_legacy, which the views read beside the
-- new tables, until pipe.move_legacy_runs has moved them in batches (pipe
-- migrate does, and the maintenance pass continues it); the open runs move
-- here, in the migration's transaction.

-- The journal's sequence, free of any table: transitions in a run's row and
-- journal rows draw from it, after every place an earlier layout gave out.
create sequence pipe.journal_seq;
select setval('pipe.journal_seq', (select last_value from pipe.events_seq_seq));

create or replace function pipe.transition(kind int, attempt int, at timestamptz) returns bytea
    language sql volatile
    as $$ select set_byte('\x00'::bytea, 0, kind) || int8send(nextval('pipe.journal_seq'))
               || int4send(attempt) || int8send((extract(epoch from at) * 1000000)::bigint) $$;

-- The earlier layout, renamed: its open runs move below, its finished runs
-- later, in batches.
drop view pipe.journal;
alter table pipe.jobs rename to jobs_legacy;
alter index pipe.jobs_pkey rename to jobs_legacy_pkey;
alter index pipe.jobs_open rename to jobs_legacy_open;
alter index pipe.jobs_run_id rename to jobs_legacy_run_id;
drop index pipe.jobs_live_key, pipe.jobs_claimable, pipe.jobs_leased;
alter table pipe.events rename to events_legacy;
alter index pipe.events_pkey rename to events_legacy_pkey;

create table pipe.runs (
    id              uuid        not null,
    run_id          uuid        not null,
    name            text        not null,
    queue           text        not null,
    tenant          text        not null default '',
    idem_key        text        not null,
    input           jsonb       not null,
    state           text        not null
        check (state in ('ready', 'delayed', 'running', 'suspended', 'done', 'failed', 'dead', 'cancelled')),
    attempt         integer     not null default 0,
    max_attempts    integer     not null check (max_attempts >= 1),
    claims          integer     not null default 0,
    worker_id       text,
    lease_until     timestamptz,
    run_at          timestamptz not null default pipe.now(),
    created_at      timestamptz not null default pipe.now(),
    started_at      timestamptz,
    finished_at     timestamptz,
    has_steps       boolean     not null default false,
    result          jsonb,
    last_error      jsonb,
    progress        jsonb,
    trace_parent    text,
    status          jsonb,
    status_at       timestamptz,
    concurrency_key text,
    transitions     bytea       not null default '',
    sensitive       boolean     not null default false,
    -- a run has finished exactly when it has a finish time: the finished
    -- partitions are ranges of it
    check ((finished_at is null) = (state in ('ready', 'delayed', 'running', 'suspended')))
) partition by list (state);

create table pipe.runs_open partition of pipe.runs
    for values in ('ready', 'delayed', 'running', 'suspended');
alter table pipe.runs_open add constraint runs_open_pkey primary key (id);
-- One open run per (name, tenant, key): enqueue dedupes on it. Every row of
-- the partition is open, so the index needs no predicate.
create unique index runs_open_live_key on pipe.runs_open (name, tenant, idem_key);
-- A run id a caller named is unique among the open runs here; the enqueue
-- looks for it among the finished ones (runs_*_run_id).
create unique index runs_open_run_id on pipe.runs_open (run_id) where run_id <> id;
-- The claim reads this index only.
create index runs_open_claimable on pipe.runs_open (queue, name, run_at)
    where state in ('ready', 'delayed', 'suspended');
-- Lapsed leases are found here (a lease is set exactly while running).
create index runs_open_leased on pipe.runs_open (lease_until) where lease_until is not null;
-- The open runs by state: the queues' depth, and listings by state.
create index runs_open_state on pipe.runs_open (state, id) include (queue, run_at);

create table pipe.runs_done partition of pipe.runs
    for values in ('done', 'cancelled') partition by range (finished_at);
create table pipe.runs_dead partition of pipe.runs
    for values in ('dead', 'failed') partition by range (finished_at);

-- The finished runs' indexes, one per operator read (the list's filters,
-- newest first, and show by id); every partition gets them.
create index runs_done_id on pipe.runs_done (id);
create index runs_done_name on pipe.runs_done (name, id);
create index runs_done_queue on pipe.runs_done (queue, id);
create index runs_done_key on pipe.runs_done (idem_key, id);
create index runs_done_tenant on pipe.runs_done (tenant, id) where tenant <> '';
create index runs_done_concurrency_key on pipe.runs_done (concurrency_key, id) where concurrency_key is not null;
create index runs_done_run_id on pipe.runs_done (run_id) where run_id <> id;
create index runs_done_cancelled on pipe.runs_done (id) where state = 'cancelled';
create index runs_dead_id on pipe.runs_dead (id);
create index runs_dead_name on pipe.runs_dead (name, id);
create index runs_dead_queue on pipe.runs_dead (queue, id);
create index runs_dead_key on pipe.runs_dead (idem_key, id);
create index runs_dead_tenant on pipe.runs_dead (tenant, id) where tenant <> '';
create index runs_dead_concurrency_key on pipe.runs_dead (concurrency_key, id) where concurrency_key is not null;
create index runs_dead_run_id on pipe.runs_dead (run_id) where run_id <> id;
create index runs_dead_failed on pipe.runs_dead (id) where state = 'failed';

-- The journal. A row carries its run's end: 'open' while the run is open,
-- then the state it ended in and when, so it lives and is dropped with
-- its run.
create table pipe.run_events (
    job_id          uuid        not null,
    seq             bigint      not null default nextval('pipe.journal_seq'),
    kind            text        not null,
    attempt         integer     not null default 0,
    step            text,
    data            jsonb,
    at              timestamptz not null default pipe.now(),
    run_state       text        not null default 'open'
        check (run_state in ('open', 'done', 'failed', 'dead', 'cancelled')),
    run_finished_at timestamptz,
    check ((run_finished_at is null) = (run_state = 'open'))
) partition by list (run_state);

create table pipe.run_events_open partition of pipe.run_events for values in ('open');
alter table pipe.run_events_open add constraint run_events_open_pkey primary key (job_id, seq);
create table pipe.run_events_done partition of pipe.run_events
    for values in ('done', 'cancelled') partition by range (run_finished_at);
create table pipe.run_events_dead partition of pipe.run_events
    for values in ('dead', 'failed') partition by range (run_finished_at);
create index run_events_done_job on pipe.run_events_done (job_id, seq);
create index run_events_dead_job on pipe.run_events_dead (job_id, seq);

-- The partitions of the four finished trees (runs_done, runs_dead,
-- run_events_done, run_events_dead) and their bounds, read from the
-- catalog: lower is -infinity for an old edge; detaching is a detach begun
-- (DETACH ... CONCURRENTLY) and not finished.
create function pipe.run_partitions()
    returns table (tree text, name text, lower timestamptz, upper timestamptz, detaching boolean)
    language sql stable
    set datestyle = 'ISO' set timezone = 'UTC'
as $$
    select p.relname::text, c.relname::text,
           case when m[1] = 'MINVALUE' then '-infinity'::timestamptz else trim(both '''' from m[1])::timestamptz end,
           trim(both '''' from m[2])::timestamptz,
           i.inhdetachpending
    from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    cross join lateral regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \((.*)\) TO \((.*)\)') m
    where p.relnamespace = 'pipe'::regnamespace
      and p.relname in ('runs_done', 'runs_dead', 'run_events_done', 'run_events_dead')
$$;

-- Attach to a finished tree a new partition named tree_suffix for
-- [lower, upper) (lower null: the old edge, from MINVALUE). The table is
-- made standalone and then attached, which takes SHARE UPDATE EXCLUSIVE on
-- the tree — no claim, enqueue or settle waits on it — where CREATE TABLE
-- ... PARTITION OF would take ACCESS EXCLUSIVE.
create function pipe.attach_run_partition(tree text, suffix text, lower timestamptz, upper timestamptz) returns void
    language plpgsql
    set datestyle = 'ISO' set timezone = 'UTC'
as $$
begin
    execute format('create table pipe.%I (like pipe.%I including defaults including constraints)', tree || '_' || suffix, tree);
    execute format('alter table pipe.%I attach partition pipe.%I for values from (%s) to (%L)',
                   tree, tree || '_' || suffix, coalesce(quote_literal(lower), 'minvalue'), upper);
end
$$;

-- Make the partitions a finished class (done: days; dead: weeks) needs
-- around at, in both its trees: an old edge if the tree has none (below its
-- first partition; in an empty tree, at floor), then consecutive partitions
-- from the newest one's end up to horizon. A gap of more than two periods
-- between the newest partition and current (maintenance stopped for weeks,
-- a clock moved in a test) is covered by one partition, so that the count
-- stays small. Answers how many partitions it attached.
create function pipe.extend_run_partitions(class text, width interval, floor timestamptz, current timestamptz, horizon timestamptz)
    returns integer
    language plpgsql
    set datestyle = 'ISO' set timezone = 'UTC'
as $$
declare
    made integer := 0;
    t text;
    low timestamptz;
    top timestamptz;
begin
    foreach t in array array['runs_' || class, 'run_events_' || class] loop
        -- a partition whose detach a killed retention pass left pending
        -- still holds its range and its name: the new partitions go around
        -- it, and a new old edge is made once a pending one is dropped
        select min(p.lower) filter (where p.lower > '-infinity'), max(p.upper)
          into low, top
          from pipe.run_partitions() p where p.tree = t;
        if not exists (select from pipe.run_partitions() p where p.tree = t and p.lower = '-infinity') then
            perform pipe.attach_run_partition(t, 'old', null, coalesce(low, floor));
            made := made + 1;
            if top is null then
                top := floor;
            end if;
        elsif top < current - 2 * width then
            perform pipe.attach_run_partition(t, to_char(top, 'YYYYMMDD') || '_gap', top, current);
            made := made + 1;
            top := current;
        end if;
        while top < horizon loop
            perform pipe.attach_run_partition(t, to_char(top, 'YYYYMMDD'), top, top + width);
            made := made + 1;
            top := top + width;
        end loop;
    end loop;
    return made;
end
$$;

-- Make every partition a run finishing at at (default: the database
-- clock's now) needs: yesterday's, today's and the next two days' for done
-- runs, last week's, this week's and the next one's for dead ones. past
-- makes the retention's worth behind them too (15 days, 13 weeks), for
-- runs moved from an earlier layout, in a tree that has none yet. Safe to
-- call any time from anywhere: when every partition is there already (the
-- usual case) it answers at once, taking no lock; else callers serialize
-- on an advisory lock. It runs as the schema's owner, so that a worker's
-- or an operator's role needs no right to create tables. Answers how many
-- partitions it attached.
create function pipe.ensure_run_partitions(at timestamptz default pipe.now(), past boolean default false) returns integer
    language plpgsql
    security definer
    set search_path = pg_catalog, pg_temp
    set datestyle = 'ISO' set timezone = 'UTC'
as $$
declare
    day  timestamptz := date_trunc('day', at);
    week timestamptz := date_trunc('week', at);
begin
    if not past and not exists (
        with p as materialized (select * from pipe.run_partitions())
        select from (values ('runs_done', day + interval '3 days'), ('run_events_done', day + interval '3 days'),
                            ('runs_dead', week + interval '2 weeks'), ('run_events_dead', week + interval '2 weeks')) h(tree, horizon)
        where coalesce((select max(p.upper) from p where p.tree = h.tree), '-infinity') < h.horizon
           or not exists (select from p where p.tree = h.tree and p.lower = '-infinity')
    ) then
        return 0;
    end if;
    perform pg_advisory_xact_lock(7401190238118);
    return pipe.extend_run_partitions('done', interval '1 day',
               day - case when past then interval '15 days' else interval '1 day' end, day - interval '1 day', day + interval '3 days')
         + pipe.extend_run_partitions('dead', interval '7 days',
               week - case when past then interval '13 weeks' else interval '1 week' end, week - interval '1 week', week + interval '2 weeks');
end
$$;

-- The open runs move now, with their journals, in this transaction: they
-- are the small hot set, and the workers' statements read only runs_open.
insert into pipe.runs_open (id, run_id, name, queue, tenant, idem_key, input, state, attempt, max_attempts, claims,
                            worker_id, lease_until, run_at, created_at, started_at, finished_at, has_steps, result,
                            last_error, progress, trace_parent, status, status_at, concurrency_key, transitions, sensitive)
select id, run_id, name, queue, tenant, idem_key, input, state, attempt, max_attempts, claims,
       worker_id, lease_until, run_at, created_at, started_at, null, has_steps, result,
       last_error, progress, trace_parent, status, status_at, concurrency_key, transitions, sensitive
from pipe.jobs_legacy
where state in ('ready', 'delayed', 'running', 'suspended');

insert into pipe.run_events_open (job_id, seq, kind, attempt, step, data, at)
select e.job_id, e.seq, e.kind, e.attempt, e.step, e.data, e.at
from pipe.events_legacy e join pipe.runs_open o on o.id = e.job_id;
delete from pipe.events_legacy e using pipe.runs_open o where e.job_id = o.id;
delete from pipe.jobs_legacy where state in ('ready', 'delayed', 'running', 'suspended');
drop index pipe.jobs_legacy_open;

-- The partitions around now, and the retention's worth behind it when there
-- are finished runs to move.
select pipe.ensure_run_partitions(pipe.now(), exists (select from pipe.jobs_legacy));

-- The columns every view of the runs shows, in the order pipe.jobs had.
create view pipe.jobs as
    select id, run_id, name, queue, tenant, idem_key, input, state, attempt, max_attempts, claims, worker_id,
           lease_until, run_at, created_at, started_at, finished_at, has_steps, result, last_error, progress,
           trace_parent, status, status_at, concurrency_key, transitions, sensitive
    from pipe.runs
    union all
    select id, run_id, name, queue, tenant, idem_key, input, state, attempt, max_attempts, claims, worker_id,
           lease_until, run_at, created_at, started_at, finished_at, has_steps, result, last_error, progress,
           trace_parent, status, status_at, concurrency_key, transitions, sensitive
    from pipe.jobs_legacy;

create view pipe.events as
    select job_id, seq, kind, attempt, step, data, at from pipe.run_events
    union all
    select job_id, seq, kind, attempt, step, data, at from pipe.events_legacy;

-- A run's whole journal: its pipe.events rows and the transitions its row
-- holds. Ask it for one run (where job_id = ...).
create view pipe.journal as
    select e.job_id, e.seq, e.kind, e.attempt, e.step, e.data, e.at
    from pipe.events e
    union all
    select j.id, t.seq, t.kind, t.attempt, null, null, t.at
    from pipe.jobs j cross join lateral pipe.transitions(j.transitions) t;

-- Move the given runs of the earlier layout (and their journals) into the
-- partitions; a run another transaction is moving is skipped. Answers how
-- many moved.
create function pipe.move_legacy_ids(ids uuid[]) returns integer
    language plpgsql
as $$
declare
    moved integer;
begin
    execute $move$
        with gone as (
            delete from pipe.jobs_legacy l where l.id = any($1) returning l.*
        ), runs as (
            insert into pipe.runs (id, run_id, name, queue, tenant, idem_key, input, state, attempt, max_attempts, claims,
                                   worker_id, lease_until, run_at, created_at, started_at, finished_at, has_steps, result,
                                   last_error, progress, trace_parent, status, status_at, concurrency_key, transitions, sensitive)
            select id, run_id, name, queue, tenant, idem_key, input, state, attempt, max_attempts, claims,
                   null, null, run_at, created_at, started_at, coalesce(finished_at, created_at), has_steps, result,
                   last_error, progress, trace_parent, status, status_at, concurrency_key, transitions, sensitive
            from gone
            returning id
        ), journal as (
            delete from pipe.events_legacy e
            where e.job_id = any(array(select id from gone))
            returning e.*
        ), moved_journal as (
            insert into pipe.run_events (job_id, seq, kind, attempt, step, data, at, run_state, run_finished_at)
            select e.job_id, e.seq, e.kind, e.attempt, e.step, e.data, e.at, g.state, coalesce(g.finished_at, g.created_at)
            from journal e join gone g on g.id = e.job_id
        )
        select count(*) from runs
    $move$ into moved using ids;
    return moved;
end
$$;

-- Move the one run of the earlier layout named run now, if it is still
-- there: an operator's command on it (retry, remove) works on pipe.runs.
-- Answers whether it moved.
create function pipe.adopt_legacy_run(run uuid) returns boolean
    language plpgsql
as $$
begin
    if to_regclass('pipe.jobs_legacy') is null then
        return false;
    end if;
    return pipe.move_legacy_ids(array[run]) > 0;
end
$$;

-- Move up to n finished runs (and their journals) of the earlier layout
-- into the partitions, in one transaction; a run another statement holds
-- is left for the next call. Once none is left it points the views at the
-- new tables alone and drops the legacy ones. Answers the runs moved, or
-- -1 when nothing is left to move.
create function pipe.move_legacy_runs(n integer) returns integer
    language plpgsql
as $$
declare
    moved integer;
begin
    if to_regclass('pipe.jobs_legacy') is null then
        return -1;
    end if;
    moved := pipe.move_legacy_ids(array(select id from pipe.jobs_legacy order by id limit n for update skip locked));
    if moved > 0 or exists (select from pipe.jobs_legacy) then
        return moved;
    end if;
    -- Nothing left: the views read the new tables alone.
    create or replace view pipe.jobs as
        select id, run_id, name, queue, tenant, idem_key, input, state, attempt, max_attempts, claims, worker_id,
               lease_until, run_at, created_at, started_at, finished_at, has_steps, result, last_error, progress,
               trace_parent, status, status_at, concurrency_key, transitions, sensitive
        from pipe.runs;
    create or replace view pipe.events as
        select job_id, seq, kind, attempt, step, data, at from pipe.run_events;
    drop table pipe.jobs_legacy, pipe.events_legacy;
    return -1;
end
$$;

-- A database with no finished runs to move (a new one) is done now.
select pipe.move_legacy_runs(0);
