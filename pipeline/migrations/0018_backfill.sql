-- The ledger of backfill passes (package backfill): one row per pass, keyed
-- by the run that works it (job_id is its job row, for a cancel). The
-- cursor, rows and batches move in the transaction of the batch they count
-- (fenced on the run's claim), so a resumed pass starts after the last
-- batch that committed. The other
-- columns are reports: the current batch size, the rate, the catalog's
-- estimate of the rows, why the pass waits, the last error's code.
-- held is the operator's pause (pipe backfill pause), read by the pass
-- between batches.
create table pipe.backfills (
    run_id          uuid        primary key,
    job_id          uuid        not null,
    name            text        not null,
    target          text        not null,
    state           text        not null default 'running'
        check (state in ('running', 'paused', 'waiting', 'done', 'failed', 'cancelled')),
    held            boolean     not null default false,
    cursor          text,
    rows_done       bigint      not null default 0,
    batches         bigint      not null default 0,
    batch_size      integer     not null,
    rate            double precision not null default 0,
    total_estimate  bigint,
    pause_reason    text,
    last_error_code text,
    started_at      timestamptz not null default pipe.now(),
    updated_at      timestamptz not null default pipe.now(),
    finished_at     timestamptz
);

create index backfills_started on pipe.backfills (started_at desc);
