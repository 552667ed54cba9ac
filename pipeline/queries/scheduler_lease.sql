-- Acquire or renew the scheduler lease for holder $1 with TTL $2. It is taken
-- when free, expired or already $1's. Answers whether $1 holds it now, and
-- which of the tasks $3 are paused (so a leader learns of a resume without a
-- statement of its own).
with clock as (
    select pipe.now() as now
), held as (
    insert into pipe.scheduler_leader as l (one, holder, acquired_at, expires_at)
    select true, $1, c.now, c.now + $2::interval
    from clock c
    on conflict (one) do update
        set holder      = excluded.holder,
            expires_at  = excluded.expires_at,
            acquired_at = case when l.holder = excluded.holder then l.acquired_at else excluded.acquired_at end
        where l.holder = excluded.holder or l.expires_at <= excluded.acquired_at
    returning holder
)
select exists (select from held),
       coalesce((select array_agg(s.task order by s.task)
                 from pipe.task_state s
                 where s.paused and s.task = any($3::text[])), '{}')
