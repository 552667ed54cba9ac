-- The runs that are not done, by state: the queues' depth (Admin.Queues —
-- `pipe queues list`, the console, the queue_depth metric) reads it with an
-- index-only scan instead of counting every row pipe.jobs keeps, and a
-- listing filtered to one of these states (dead, failed, ready…) reads its
-- newest rows in order instead of scanning past the done ones. Done rows, the
-- bulk of a busy table until maintenance purges them, are not in it. Built in
-- the migration's transaction, which blocks writes to pipe.jobs while it
-- builds.
create index jobs_open on pipe.jobs (state, id) include (queue, run_at)
    where state <> 'done';
