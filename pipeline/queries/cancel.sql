-- Cancel an open run. A running one's worker is fenced out by the state
-- change. Through pipe.runs, so that the row moves to today's done partition
-- (the literal states prune the plan to runs_open), and its journal with it.
with c as (
    update pipe.runs j set
        state       = 'cancelled',
        finished_at = pipe.now(),
        lease_until = null,
        worker_id   = null,
        last_error  = jsonb_build_object('code', 'X_JOB_CANCELLED', 'message', 'cancelled by an operator',
                                         'fix', 'none: the run is cancelled; `pipe jobs retry ' || j.id || '` runs it again')
    where j.id = $1 and j.state in ('ready', 'delayed', 'running', 'suspended')
    returning j.id, j.finished_at
)
update pipe.run_events e set run_state = 'cancelled', run_finished_at = c.finished_at
from c
where e.run_state = 'open' and e.job_id = $1
