-- Put a finished run back to ready with a fresh attempt budget. The row
-- moves from its finished partition back to runs_open, and its journal
-- with it.
with r as (
    update pipe.runs set
        state       = 'ready',
        attempt     = 0,
        run_at      = pipe.now(),
        finished_at = null,
        result      = null
    where id = $1 and state in ('done', 'failed', 'dead', 'cancelled')
    returning id
)
update pipe.run_events e set run_state = 'open', run_finished_at = null
from r
where e.job_id = $1 and e.run_state <> 'open'
