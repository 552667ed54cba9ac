-- Renew the leases of the runs a worker holds, each fenced on its claim, and
-- the concurrency slots they hold with them. A row another statement holds
-- locked (a step write, an operator) is skipped, never waited on, so renew
-- cannot deadlock with a settle; it answers such rows as busy (false), still
-- this worker's, to be renewed next time; and a held run an operator
-- cancelled as null, so that its body hears a cancel, not a lost lease (a
-- cancelled run has left runs_open for runs_done: only the ids not found
-- running are looked for there, through runs_done_cancelled).
-- The state is compared as "state || ''" on purpose: the rows are found by
-- their ids alone, never through runs_open_state, which a bare state =
-- 'running' would let the planner AND in when the statistics of a queue at
-- rest make running rows look rare.
with locked as materialized (
    select id from pipe.runs_open where id = any($1::uuid[]) order by id for update skip locked
), renewed as (
    update pipe.runs_open j set lease_until = (select pipe.now()) + $3::interval
    from unnest($1::uuid[], $2::int[]) as u(id, claims)
    where j.id = any(array(select id from locked)) and j.id = u.id and j.claims = u.claims and j.state || '' = 'running'
    returning j.id, j.claims
), slots as (
    update pipe.job_leases l set expires_at = (select pipe.now()) + $3::interval
    from renewed r
    where l.job_id = any(array(select id from renewed)) and l.job_id = r.id and l.claims = r.claims
)
select id, true from renewed
union all
select j.id, false
from pipe.runs_open j join unnest($1::uuid[], $2::int[]) as u(id, claims) on j.id = u.id and j.claims = u.claims
where j.id = any($1::uuid[]) and j.state || '' = 'running' and j.id <> all(array(select id from locked))
union all
select j.id, null
from pipe.runs_done j join unnest($1::uuid[], $2::int[]) as u(id, claims) on j.id = u.id and j.claims = u.claims
where j.id = any(array(select unnest($1::uuid[]) except select id from pipe.runs_open where id = any($1::uuid[])))
  and j.state = 'cancelled'
