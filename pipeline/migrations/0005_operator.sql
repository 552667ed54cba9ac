-- The operator's view: paused queues, live workers, counters per job.

create table pipe.queue_pauses (
    queue     text        primary key,
    paused_at timestamptz not null default pipe.now()
);

-- One row per running worker, renewed by its heartbeat; a row whose
-- expires_at passed belongs to a worker that stopped renewing it.
create table pipe.workers (
    id             text        primary key,
    host           text        not null,
    started_at     timestamptz not null default pipe.now(),
    queues         jsonb       not null,
    max_in_flight  integer     not null,
    in_flight      uuid[]      not null default '{}',
    last_heartbeat timestamptz not null default pipe.now(),
    expires_at     timestamptz not null
);

-- Counters per job, moved by the settling statements themselves, in 1-minute
-- buckets; maintenance rolls older ones into 5-minute (past 24 h) and hourly
-- (past 7 d) buckets and drops them past 30 d.
create table pipe.job_counters (
    job         text        not null,
    bucket      timestamptz not null,
    done        bigint      not null default 0,
    retried     bigint      not null default 0,
    failed      bigint      not null default 0,
    dead        bigint      not null default 0,
    duration_ms bigint      not null default 0,
    primary key (job, bucket)
);
