-- Pause ($2 true) or resume ($2 false) the armed task $1; no row means no
-- scheduler has armed a task of that name.
update pipe.task_state set paused = $2 where task = $1 returning task
