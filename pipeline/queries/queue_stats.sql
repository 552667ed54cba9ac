-- Depth per state of every queue holding an open run, a failed or dead one,
-- or a pause. No count reads more than its cap: $1 for the open runs in
-- each open state, all queues together (one index-only pass over
-- runs_open_state, which holds the queue and run_at, for each waiting
-- state; the running through runs_open_leased), $2 for each queue's
-- failed and dead ones (each runs_dead partition's queue index, read in
-- partition order with no sort: ordering them by id lets the planner read a
-- whole partition, or all of the queue's runs, to answer $2). A count that
-- reaches its cap stopped there; the caller estimates the rest. The queues
-- with failed or dead runs come from a skip scan of the queue indexes, a
-- probe per queue, and so do the queues with waiting runs (through
-- runs_open_claimable), so that a queue the capped pass did not reach is
-- still listed; a queue whose runs are all running, past the cap, may not
-- be. The last column says an earlier layout's runs are still
-- to move: their failed and dead ones are not counted here.
with recursive finished(queue) as (
    (select queue from pipe.runs_dead order by queue limit 1)
    union all
    select (select r.queue from pipe.runs_dead r where r.queue > f.queue order by r.queue limit 1)
    from finished f where f.queue is not null
), waiting(queue) as (
    (select queue from pipe.runs_open where state in ('ready', 'delayed', 'suspended') order by queue limit 1)
    union all
    select (select r.queue from pipe.runs_open r
            where r.state in ('ready', 'delayed', 'suspended') and r.queue > w.queue order by r.queue limit 1)
    from waiting w where w.queue is not null
), open as (
    select o.queue,
           count(*) filter (where o.state = 'ready')     as ready,
           count(*) filter (where o.state = 'delayed')   as delayed,
           count(*) filter (where o.state = 'running')   as running,
           count(*) filter (where o.state = 'suspended') as suspended,
           count(*) filter (where o.state <> 'running' and o.run_at <= (select pipe.now())) as due
    from (
        select s.state, o.queue, o.run_at
        from unnest('{ready,delayed,suspended}'::text[]) s(state)
        cross join lateral (select r.queue, r.run_at from pipe.runs_open r
                            where r.state = s.state and r.state <> 'running' limit $1) o
        union all
        -- the running runs are not in runs_open_state: they hold a lease
        select 'running', r.queue, r.run_at from (
            select r.queue, r.run_at from pipe.runs_open r
            where r.lease_until is not null and r.state = 'running' limit $1) r
    ) o
    group by o.queue
), queues as (
    select queue from open
    union select queue from finished where queue is not null
    union select queue from waiting where queue is not null
    union select queue from pipe.queue_pauses
)
select q.queue, exists (select from pipe.queue_pauses p where p.queue = q.queue),
       coalesce(o.ready, 0), coalesce(o.delayed, 0), coalesce(o.running, 0), coalesce(o.suspended, 0),
       d.failed, d.dead, coalesce(o.due, 0),
       to_regclass('pipe.jobs_legacy') is not null
from queues q
left join open o on o.queue = q.queue
cross join lateral (
    select count(*) filter (where s.state = 'failed') as failed,
           count(*) filter (where s.state = 'dead')   as dead
    from (select r.state from pipe.runs_dead r where r.queue = q.queue limit $2) s
) d
order by q.queue
