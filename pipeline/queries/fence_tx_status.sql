-- The end of a FencedTx that reports a status: store the run's status
-- document, stamped with the database clock, if this attempt still holds it.
update pipe.runs_open set status = $3, status_at = pipe.now()
where id = $1 and claims = $2 and state = 'running'
returning id
