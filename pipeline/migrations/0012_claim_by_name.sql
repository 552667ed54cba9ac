-- The claim looks up each job name it runs on its own: the claimable index
-- leads with (queue, name), so that a worker's claim reads its own names'
-- oldest rows and nothing else, however many rows other jobs have queued
-- beside them, with one plan kept for every pass (a generic plan: the
-- custom plan the claim needed to judge how rare a name was cost more than
-- executing it). Built in the migration's transaction, which blocks writes
-- to pipe.jobs while it builds.
drop index pipe.jobs_claimable;
create index jobs_claimable on pipe.jobs (queue, name, run_at)
    where state in ('ready', 'delayed', 'suspended');
