-- Fire one occurrence of task $1 as the leader $2: move the watermark from
-- $3 to $4, stamping the fire $5. Nothing moves unless the watermark still
-- held $3, the task is not paused and $2 holds an unexpired lease. The
-- occurrence's jobs are written by the enqueue statement in the same
-- transaction, only when this one answers true, so a crash, a retry or a
-- second scheduler (its update waits on this row's lock, then finds the
-- watermark moved) cannot fire the occurrence twice.
update pipe.task_state s
set last_occurrence = $4, last_fired = $5, fired_at = c.now
from (select pipe.now() as now) c
where s.task = $1
  and s.last_occurrence = $3
  and not s.paused
  and exists (select from pipe.scheduler_leader l where l.holder = $2 and l.expires_at > c.now)
returning true
