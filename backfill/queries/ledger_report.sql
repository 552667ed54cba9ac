-- What the pass is doing between batches: its state, why it waits, the
-- last error's code (null keeps the one stored), its batch size. A
-- cancelled or finished pass keeps its state.
update pipe.backfills set
    state = $2, pause_reason = $3,
    last_error_code = coalesce($4, last_error_code),
    batch_size = $5, updated_at = pipe.now()
where run_id = $1 and state not in ('done', 'cancelled')
returning held
