-- Hand a run back uncounted: ready again after $3, the attempt given back
-- (a drain, a busy concurrency key, a rate limit). $4 is the journal event,
-- $5 its data. Releases any concurrency slot the run held.
with d as (
    update pipe.runs_open j set
        state       = 'ready',
        attempt     = j.attempt - 1,
        run_at      = pipe.now() + $3::interval,
        lease_until = null,
        worker_id   = null
    where j.id = $1 and j.claims = $2 and j.state = 'running'
    returning j.id, j.attempt
), journal as (
    insert into pipe.run_events_open (job_id, kind, attempt, data)
    select id, $4, attempt, $5 from d
), freed as (
    delete from pipe.job_leases l using d where l.job_id = d.id
)
select id from d
