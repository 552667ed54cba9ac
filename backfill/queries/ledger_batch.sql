-- A batch's checkpoint, in the batch's own transaction: the cursor past it,
-- the counts, the size and rate the pass runs at.
update pipe.backfills set
    cursor = $2, rows_done = rows_done + $3, batches = batches + 1,
    batch_size = $4, rate = $5, state = 'running', pause_reason = null,
    updated_at = pipe.now()
where run_id = $1
