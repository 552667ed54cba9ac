-- An operator's cancel of a pass not yet finished.
update pipe.backfills set state = 'cancelled', finished_at = pipe.now(), updated_at = pipe.now()
where run_id = $1 and state not in ('done', 'cancelled')
returning run_id
