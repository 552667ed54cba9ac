-- Hand a drained run back uncounted: straight to ready, the attempt given back.
with i as (
    update pipe.jobs j set
        state       = 'ready',
        attempt     = j.attempt - 1,
        run_at      = pipe.now(),
        lease_until = null,
        worker_id   = null
    where j.id = $1 and j.claims = $2 and j.state = 'running'
    returning j.id, j.attempt
), journal as (
    insert into pipe.events (job_id, kind, attempt)
    select id, 'interrupted', attempt from i
)
select id from i
