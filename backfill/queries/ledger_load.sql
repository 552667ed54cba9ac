-- Where a pass resumes: its cursor and counts as the last batch left them.
select cursor, rows_done, batches, batch_size from pipe.backfills where run_id = $1
