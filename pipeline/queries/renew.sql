-- Renew the leases of the runs a worker holds, each fenced on its claim, and
-- the concurrency slots they hold with them. Rows are locked in id order, as
-- complete locks them, so the two never deadlock.
with locked as materialized (
    select id from pipe.jobs where id = any($1::uuid[]) order by id for update
), renewed as (
    update pipe.jobs j set lease_until = (select pipe.now()) + $3::interval
    from unnest($1::uuid[], $2::int[]) as u(id, claims)
    where j.id = any(array(select id from locked)) and j.id = u.id and j.claims = u.claims and j.state = 'running'
    returning j.id, j.claims
), slots as (
    update pipe.job_leases l set expires_at = (select pipe.now()) + $3::interval
    from renewed r
    where l.job_id = any(array(select id from renewed)) and l.job_id = r.id and l.claims = r.claims
)
select id from renewed
