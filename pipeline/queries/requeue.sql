-- Put a finished run back to ready with a fresh attempt budget.
update pipe.jobs set
    state       = 'ready',
    attempt     = 0,
    run_at      = pipe.now(),
    finished_at = null,
    result      = null
where id = $1
