-- An operator's pause ($2 true) or resume of a pass not yet finished.
update pipe.backfills set held = $2, updated_at = pipe.now()
where run_id = $1 and state not in ('done', 'cancelled')
returning run_id
