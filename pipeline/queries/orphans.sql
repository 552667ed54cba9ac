-- Hand back, uncounted, the runs a claim gave this worker ($1) whose answer
-- was lost with the connection: running under its id, held by none of its
-- bodies ($2). Found through runs_open_leased: a running row has a lease.
with d as (
    update pipe.runs_open j set
        state       = 'ready',
        attempt     = j.attempt - 1,
        run_at      = pipe.now(),
        lease_until = null,
        worker_id   = null
    where j.lease_until is not null
      and j.worker_id = $1
      and j.state = 'running'
      and j.id <> all($2::uuid[])
    returning j.id, j.attempt
)
insert into pipe.run_events_open (job_id, kind, attempt, data)
select id, 'interrupted', attempt,
       jsonb_build_object('code', 'X_POSTGRES_UNAVAILABLE', 'message', 'the claim''s answer was lost with its connection')
from d
