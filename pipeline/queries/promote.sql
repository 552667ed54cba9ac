-- Run a job waiting on its run_at now.
update pipe.runs_open set state = 'ready', run_at = pipe.now()
where id = $1
  and (state = 'delayed' or (state = 'ready' and run_at > pipe.now()))
