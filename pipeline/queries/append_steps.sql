-- Append a batch of step events, each fenced on its run's claim. The update
-- takes the row lock, so a lapsed lease cannot be re-claimed mid-write.
-- The state is compared as "state || ''" on purpose: the rows are found by
-- their ids alone, never through runs_open_state, which a bare state =
-- 'running' would let the planner AND in when the statistics of a queue at
-- rest make running rows look rare.
with clock as materialized (
    select pipe.now() as now
), u as (
    select *
    from unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::jsonb[])
        as u(id, claims, kind, step, data)
), fenced as (
    update pipe.runs_open j set has_steps = true
    from u
    where j.id = any($1::uuid[]) and j.id = u.id and j.claims = u.claims and j.state || '' = 'running'
    returning j.id, j.attempt
), journal as (
    insert into pipe.run_events_open (job_id, kind, attempt, step, data, at)
    select u.id, u.kind, f.attempt, u.step, u.data, (select now from clock)
    from u join fenced f on f.id = u.id
)
select id from fenced
