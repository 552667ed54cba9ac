-- One claim pass over every queue a worker serves, in one statement.
-- $1 queues, first the one after the last served, $2 each queue's free
-- slots, $3 the job names this worker runs, $4 worker id, $5 names that
-- bury a lapsed final attempt "failed" (no dead letter), $6 the lease
-- window, $7 the process's room across every queue (MaxInFlight; null: no
-- cap).
-- First it settles lapsed leases it finds (back to ready, or dead/failed when
-- the lapsed attempt was the last: the row and its journal then move to the
-- dead partitions); then it claims ready rows, oldest run_at first, skipping
-- rows other workers hold. It reads runs_open alone, never a finished run.
with clock as materialized (
    select pipe.now() as now
), lapsed as (
    -- A lease is set exactly while a run is running, so the lapsed are found
    -- by lease_until alone, through runs_open_leased.
    select j.id
    from pipe.runs_open j
    where j.lease_until < (select now from clock)
    order by j.lease_until
    limit 100
    for update of j skip locked
), buried as (
    -- through pipe.runs, so that a buried run moves to its partition; the
    -- literal state prunes the statement to runs_open when it is planned
    update pipe.runs j set
        state       = case when j.attempt < j.max_attempts then 'ready'
                           when j.name = any($5) then 'failed' else 'dead' end,
        run_at      = c.now,
        lease_until = null,
        worker_id   = null,
        finished_at = case when j.attempt < j.max_attempts then null else c.now end,
        last_error  = jsonb_build_object(
            'code', 'X_JOB_LEASE_LOST',
            'message', 'the lease lapsed: the worker holding the run stopped renewing it',
            'attempt', j.attempt)
    from clock c
    where j.id = any(array(select id from lapsed)) and j.state = 'running'
    returning j.id, j.run_id, j.name, j.state, j.attempt, j.queue, j.tenant, j.input, j.finished_at
), buried_journal as (
    insert into pipe.run_events (job_id, kind, attempt, data, at, run_state, run_finished_at)
    select id, 'lease.lapsed', attempt, jsonb_build_object('state', state), (select now from clock),
           case when finished_at is null then 'open' else state end, finished_at
    from buried
), buried_moved as (
    -- the journal of a run buried for good goes with it
    update pipe.run_events e set run_state = b.state, run_finished_at = b.finished_at
    from buried b
    where e.run_state = 'open' and e.job_id = any(array(select id from buried where finished_at is not null))
      and e.job_id = b.id
), picked as (
    -- Each (queue, job name) pair is read on its own through runs_open_claimable,
    -- oldest run_at first, and the oldest of them win the queue's room: a
    -- claim reads the rows it may take and no others, whatever else the
    -- queue holds. The process's room ($7) is then dealt over the queues in
    -- turns, one run a queue a turn in the order given: each queue gets at
    -- most ceil(room / queues left), and what a queue with less work leaves
    -- goes to the next, so no queue starves and none is held back by an
    -- empty one. Rows beyond the room are locked only until this statement
    -- commits.
    select p.ctid
    from (
        select u.queue, u.room, u.pos
        from unnest($1::text[], $2::int[]) with ordinality as u(queue, room, pos)
        -- a paused queue is never claimed, fleet-wide, from each worker's next pass
        where not exists (select 1 from pipe.queue_pauses s where s.queue = u.queue)
    ) q
    cross join lateral (
        select c.ctid, row_number() over (order by c.run_at) as turn
        from unnest($3::text[]) as n(name)
        cross join lateral (
            select j.ctid, j.run_at
            from pipe.runs_open j
            where j.queue = q.queue
              and j.name = n.name
              and j.state in ('ready', 'delayed', 'suspended')
              and j.run_at <= (select now from clock)
            order by j.run_at
            limit q.room
            for update of j skip locked
        ) c
        order by c.run_at
        limit q.room
    ) p
    order by p.turn, q.pos
    limit $7
), claimed as (
    update pipe.runs_open j set
        state       = 'running',
        attempt     = j.attempt + 1,
        claims      = j.claims + 1,
        worker_id   = $4,
        lease_until = c.now + $6::interval,
        started_at  = coalesce(j.started_at, c.now),
        -- the first eight claims are journalled in the row, later ones below
        transitions = case when j.claims < 8 then j.transitions || pipe.transition(2, j.attempt + 1, c.now)
                           else j.transitions end
    from clock c
    where j.ctid = any(array(select ctid from picked))
    returning j.id, j.run_id, j.name, j.queue, j.tenant, j.input, j.attempt, j.max_attempts, j.claims, j.has_steps, c.now, j.concurrency_key, j.trace_parent
), claimed_journal as (
    insert into pipe.run_events_open (job_id, kind, attempt, at)
    select id, 'claimed', attempt, (select now from clock) from claimed where claims > 8
)
select true, id, run_id, name, queue, tenant, input, attempt, max_attempts, claims, has_steps, now, concurrency_key, trace_parent
from claimed
union all
select false, id, run_id, name, queue, tenant, input, attempt, 0, 0, false, null, null, null
from buried
where state in ('dead', 'failed')
