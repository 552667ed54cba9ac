-- Depth per state of every queue holding a run that is not done or
-- cancelled, or a pause. It reads the jobs_open index alone (state, id,
-- queue, run_at), never the done rows.
with depth as (
    select queue,
           count(*) filter (where state = 'ready')     as ready,
           count(*) filter (where state = 'delayed')   as delayed,
           count(*) filter (where state = 'running')   as running,
           count(*) filter (where state = 'suspended') as suspended,
           count(*) filter (where state = 'failed')    as failed,
           count(*) filter (where state = 'dead')      as dead,
           count(*) filter (where state in ('ready', 'delayed', 'suspended') and run_at <= (select pipe.now())) as due
    from pipe.jobs
    where state <> 'done' and state <> 'cancelled'
    group by queue
), queues as (
    select queue from depth union select queue from pipe.queue_pauses
)
select q.queue, exists (select 1 from pipe.queue_pauses p where p.queue = q.queue),
       coalesce(d.ready, 0), coalesce(d.delayed, 0), coalesce(d.running, 0),
       coalesce(d.suspended, 0), coalesce(d.failed, 0), coalesce(d.dead, 0), coalesce(d.due, 0)
from queues q left join depth d on d.queue = q.queue
order by q.queue
