-- Fail one attempt, fenced on its claim: $3 is the next state (ready for a
-- retry after $4, or dead/failed for good), $5 the error, $6 the event kind.
with f as (
    update pipe.jobs j set
        state       = $3,
        run_at      = case when $3 = 'ready' then pipe.now() + $4::interval else j.run_at end,
        last_error  = $5,
        lease_until = null,
        worker_id   = null,
        finished_at = case when $3 in ('dead', 'failed') then pipe.now() end
    where j.id = $1 and j.claims = $2 and j.state = 'running'
    returning j.id, j.attempt, j.run_at, j.name
), journal as (
    insert into pipe.events (job_id, kind, attempt, data)
    select id, $6, attempt, $5 from f
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
