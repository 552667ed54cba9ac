-- Fire one occurrence of task $1 as the leader $2: move the watermark from
-- $3 to $4 (stamping the fire $5) and insert the occurrence's jobs, in one
-- statement. Nothing is inserted unless the watermark still held $3, the task
-- is not paused and $2 holds an unexpired lease, so a crash, a retry or a
-- second scheduler cannot fire the occurrence twice. $6..$13 are the jobs'
-- columns, one element per entry; a key a live row holds is skipped
-- (deduped), as an enqueue would. Each inserted row is journalled
-- 'enqueued', and every queue that got a row is woken on commit.
with clock as (
    select pipe.now() as now
), advanced as (
    update pipe.task_state s
    set last_occurrence = $4, last_fired = $5, fired_at = c.now
    from clock c
    where s.task = $1
      and s.last_occurrence = $3
      and not s.paused
      and exists (select from pipe.scheduler_leader l where l.holder = $2 and l.expires_at > c.now)
    returning s.task
), input as (
    select *
    from unnest($6::uuid[], $7::text[], $8::text[], $9::text[], $10::text[], $11::jsonb[], $12::int[], $13::text[])
        as t(id, name, queue, tenant, idem_key, input, max_attempts, concurrency_key)
), ins as (
    insert into pipe.jobs (id, run_id, name, queue, tenant, idem_key, input, state, max_attempts, run_at, created_at, concurrency_key)
    select i.id, i.id, i.name, i.queue, i.tenant, i.idem_key, i.input, 'ready', i.max_attempts, c.now, c.now, i.concurrency_key
    from input i cross join clock c
    where exists (select from advanced)
    on conflict (name, tenant, idem_key) where state in ('ready', 'delayed', 'running', 'suspended') do nothing
    returning id, queue
), journal as (
    insert into pipe.events (job_id, kind)
    select id, 'enqueued' from ins
), wake as (
    select pg_notify('pipe_jobs', q.queue)
    from (select distinct queue from ins) q
)
select exists (select from advanced),
       (select count(*) from ins)::int,
       (select count(*) from wake)::int
