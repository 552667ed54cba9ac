-- Settle a batch of runs done, each fenced on its claim. Answers the ids that
-- landed; a run whose claim moved on is not touched. $4 are the runs that
-- took a concurrency slot: only their lease rows are looked for (a batch
-- without one probes nothing). Rows are found by the
-- primary key (id = any) whatever the statistics say. Renew skips locked
-- rows, so the two never deadlock.
-- The state is compared as "state || ''" on purpose: a bare state = 'running'
-- is implied by the predicate of the partial index jobs_live_key (every
-- live row), and with the statistics of a queue at rest the planner ANDs that
-- index in and reads every live row to settle a batch.
with clock as materialized (
    select pipe.now() as now
), done as (
    update pipe.jobs j set
        state       = 'done',
        finished_at = (select now from clock),
        result      = u.result,
        lease_until = null,
        worker_id   = null,
        -- journalled in the row as its claim was (the first eight claims)
        transitions = case when j.claims <= 8 then j.transitions || pipe.transition(3, j.attempt, (select now from clock))
                           else j.transitions end
    from unnest($1::uuid[], $2::int[], $3::jsonb[]) as u(id, claims, result)
    where j.id = any($1::uuid[]) and j.id = u.id and j.claims = u.claims and j.state || '' = 'running'
    returning j.id, j.attempt, j.claims, j.name, j.started_at, j.finished_at
), journal as (
    insert into pipe.events (job_id, kind, attempt, at)
    select id, 'completed', attempt, (select now from clock) from done where claims > 8
), counted as (
    insert into pipe.job_counters as c (job, bucket, done, duration_ms)
    select name, date_trunc('minute', max(finished_at)), count(*),
           coalesce(sum(extract(epoch from finished_at - started_at) * 1000), 0)::bigint
    from done group by name
    on conflict (job, bucket) do update
        set done = c.done + excluded.done, duration_ms = c.duration_ms + excluded.duration_ms
), freed as (
    delete from pipe.job_leases l
    where l.job_id = any(array(select d.id from done d where d.id = any($4::uuid[])))
)
select id from done
