-- Fail one attempt, fenced on its claim: $3 is the next state (ready for a
-- retry after $4, or dead/failed for good), $5 the error, $6 the event kind.
-- Through pipe.runs, so that a run failed for good moves, with its journal,
-- to the dead partitions; the literal state prunes the plan to runs_open.
with f as (
    update pipe.runs j set
        state       = $3,
        run_at      = case when $3 = 'ready' then pipe.now() + $4::interval else j.run_at end,
        last_error  = $5,
        lease_until = null,
        worker_id   = null,
        finished_at = case when $3 in ('dead', 'failed') then pipe.now() end
    where j.id = $1 and j.claims = $2 and j.state = 'running'
    returning j.id, j.attempt, j.run_at, j.name, j.state, j.finished_at
), journal as (
    insert into pipe.run_events (job_id, kind, attempt, data, run_state, run_finished_at)
    select id, $6, attempt, $5, case when finished_at is null then 'open' else state end, finished_at from f
), moved as (
    update pipe.run_events e set run_state = f.state, run_finished_at = f.finished_at
    from f
    where e.run_state = 'open' and e.job_id = $1 and f.finished_at is not null
), counted as (
    insert into pipe.job_counters as c (job, bucket, retried, failed, dead)
    select name, date_trunc('minute', pipe.now()),
           (case when $3 = 'ready' then 1 else 0 end),
           (case when $3 = 'failed' then 1 else 0 end),
           (case when $3 = 'dead' then 1 else 0 end)
    from f
    on conflict (job, bucket) do update
        set retried = c.retried + excluded.retried, failed = c.failed + excluded.failed, dead = c.dead + excluded.dead
), freed as (
    delete from pipe.job_leases l using f where l.job_id = f.id
)
select run_at from f
