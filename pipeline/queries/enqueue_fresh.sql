-- Enqueue a batch of one job's inputs whose keys the caller believes nobody
-- holds: enqueue without its ON CONFLICT clause (see enqueue_fresh.go). A
-- key a live row holds fails the statement on runs_open_live_key, and the caller
-- writes the batch again through enqueue. The parameters are enqueue's;
-- change the two together.
with clock as materialized (
    select pipe.now() as now
), input as (
    select *
    from unnest(@ids::uuid[], @run_ids::uuid[], @tenants::text[], @keys::text[], @inputs::jsonb[], @concurrency_keys::text[])
        as t(id, run_id, tenant, idem_key, input, concurrency_key)
), ins as (
    insert into pipe.runs_open (id, run_id, name, queue, tenant, idem_key, input, state, max_attempts, run_at, created_at, concurrency_key, trace_parent, transitions, sensitive)
    select i.id, i.run_id, @name, @queue, i.tenant, i.idem_key, i.input,
           case when coalesce(@run_at::timestamptz, c.now + @delay::interval) > c.now then 'delayed' else 'ready' end,
           @max_attempts, coalesce(@run_at::timestamptz, c.now + @delay::interval), c.now, i.concurrency_key, @trace_parent,
           pipe.transition(1, 0, c.now), -- the enqueued event, journalled in the row
           @sensitive::boolean
    from input i cross join clock c
    returning id
)
select ins.id
from ins
left join (select pg_notify('pipe_jobs', @queue) as sent where @wake::boolean) wake on true
