-- Enqueue a batch of one job's inputs. $1..$5 are column arrays, one element
-- per input; a key a live row holds is skipped (the caller resolves it).
with clock as materialized (
    select pipe.now() as now
), input as (
    select *
    from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::jsonb[], $11::text[])
        as t(id, run_id, tenant, idem_key, input, concurrency_key)
), ins as (
    insert into pipe.jobs (id, run_id, name, queue, tenant, idem_key, input, state, max_attempts, run_at, created_at, concurrency_key, trace_parent, transitions)
    select i.id, i.run_id, $6, $7, i.tenant, i.idem_key, i.input,
           case when coalesce($9::timestamptz, c.now + $10::interval) > c.now then 'delayed' else 'ready' end,
           $8, coalesce($9::timestamptz, c.now + $10::interval), c.now, i.concurrency_key, $13,
           pipe.transition(1, 0, c.now) -- the enqueued event, journalled in the row
    from input i cross join clock c
    on conflict (name, tenant, idem_key) where state in ('ready', 'delayed', 'running', 'suspended') do nothing
    returning id
)
-- $12: this statement also wakes idle workers serving the queue (the
-- caller's throttle decides); in a transaction the notification is delivered
-- on commit, never on rollback.
select ins.id
from ins
left join (select pg_notify('pipe_jobs', $7) as sent where $12::boolean) wake on true
