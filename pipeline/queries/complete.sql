-- Settle a batch of runs done, each fenced on its claim. Answers the ids that
-- landed; a run whose claim moved on is not touched.
with done as (
    update pipe.jobs j set
        state       = 'done',
        finished_at = pipe.now(),
        result      = u.result,
        lease_until = null,
        worker_id   = null
    from unnest($1::uuid[], $2::int[], $3::jsonb[]) as u(id, claims, result)
    where j.id = u.id and j.claims = u.claims and j.state = 'running'
    returning j.id, j.attempt
), journal as (
    insert into pipe.events (job_id, kind, attempt)
    select id, 'completed', attempt from done
), freed as (
    delete from pipe.job_leases l using done where l.job_id = done.id
)
select id from done
