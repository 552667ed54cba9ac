-- Settle a batch of runs done, each fenced on its claim. Answers the ids that
-- landed; a run whose claim moved on is not touched. $4 are the runs that
-- took a concurrency slot: only their lease rows are looked for (a batch
-- without one probes nothing). Rows are found by the primary key (id = any)
-- whatever the statistics say. Renew skips locked rows, so the two never
-- deadlock.
-- The update goes through pipe.runs, so that each row moves from runs_open
-- to today's done partition; the literal state = 'running' prunes the
-- statement to runs_open when it is planned. The run's journal rows move
-- with it.
with clock as materialized (
    select pipe.now() as now
), done as (
    update pipe.runs j set
        state       = 'done',
        finished_at = (select now from clock),
        result      = u.result,
        lease_until = null,
        worker_id   = null,
        -- journalled in the row as its claim was (the first eight claims)
        transitions = case when j.claims <= 8 then j.transitions || pipe.transition(3, j.attempt, (select now from clock))
                           else j.transitions end
    from unnest($1::uuid[], $2::int[], $3::jsonb[]) as u(id, claims, result)
    where j.id = any($1::uuid[]) and j.id = u.id and j.claims = u.claims and j.state = 'running'
    returning j.id, j.attempt, j.claims, j.name, j.started_at, j.finished_at
), journal as (
    insert into pipe.run_events (job_id, kind, attempt, at, run_state, run_finished_at)
    select id, 'completed', attempt, finished_at, 'done', finished_at from done where claims > 8
), moved as (
    update pipe.run_events e set run_state = 'done', run_finished_at = (select now from clock)
    where e.run_state = 'open' and e.job_id = any(array(select id from done))
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
