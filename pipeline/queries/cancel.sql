-- Cancel a live run. A running one's worker is fenced out by the state change.
update pipe.jobs set
    state       = 'cancelled',
    finished_at = pipe.now(),
    lease_until = null,
    worker_id   = null,
    last_error  = jsonb_build_object('code', 'X_JOB_CANCELLED', 'message', 'cancelled by an operator')
where id = $1
