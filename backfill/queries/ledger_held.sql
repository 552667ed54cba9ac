-- Between batches: whether an operator holds the pass, and its state.
select held, state from pipe.backfills where run_id = $1
