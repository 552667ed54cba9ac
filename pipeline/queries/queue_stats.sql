-- Depth per state of every queue holding an open run, a failed or dead one,
-- or a pause. No count reads more than its cap of a queue's rows: $1 for
-- the waiting runs (ready, delayed, suspended: runs_open_claimable, which
-- leads with the queue) and for the running ones (runs_open_state), $2 for
-- the newest failed and dead ones (each runs_dead partition's queue
-- index). A count that reaches its cap stopped there; the caller estimates
-- the rest. The queues come from skip scans of the same indexes, a probe
-- per queue. The last column says an earlier layout's runs are still to
-- move: their failed and dead ones are not counted here.
with recursive waiting(queue) as (
    (select queue from pipe.runs_open where state in ('ready', 'delayed', 'suspended') order by queue limit 1)
    union all
    select (select r.queue from pipe.runs_open r
            where r.state in ('ready', 'delayed', 'suspended') and r.queue > w.queue
            order by r.queue limit 1)
    from waiting w where w.queue is not null
), finished(queue) as (
    (select queue from pipe.runs_dead order by queue limit 1)
    union all
    select (select r.queue from pipe.runs_dead r where r.queue > f.queue order by r.queue limit 1)
    from finished f where f.queue is not null
), queues as (
    select queue from waiting where queue is not null
    union select queue from finished where queue is not null
    union select queue from pipe.runs_open where state = 'running'
    union select queue from pipe.queue_pauses
)
select q.queue, exists (select from pipe.queue_pauses p where p.queue = q.queue),
       o.ready, o.delayed, r.running, o.suspended, d.failed, d.dead, o.due,
       to_regclass('pipe.jobs_legacy') is not null
from queues q
cross join lateral (
    select count(*) filter (where s.state = 'ready')     as ready,
           count(*) filter (where s.state = 'delayed')   as delayed,
           count(*) filter (where s.state = 'suspended') as suspended,
           count(*) filter (where s.run_at <= (select pipe.now())) as due
    from (select state, run_at from pipe.runs_open
          where queue = q.queue and state in ('ready', 'delayed', 'suspended') limit $1) s
) o
cross join lateral (
    select count(*) as running
    from (select from pipe.runs_open where queue = q.queue and state = 'running' limit $1) s
) r
cross join lateral (
    select count(*) filter (where s.state = 'failed') as failed,
           count(*) filter (where s.state = 'dead')   as dead
    from (select state from pipe.runs_dead where queue = q.queue order by id desc limit $2) s
) d
order by q.queue
