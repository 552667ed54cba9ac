-- The pass found no row past its cursor.
update pipe.backfills set state = 'done', pause_reason = null, finished_at = pipe.now(), updated_at = pipe.now()
where run_id = $1
