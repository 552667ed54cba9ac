-- The end of a FencedTx: lock the run's row if this attempt still holds it,
-- so the transaction commits only with the claim it was begun under.
select id from pipe.runs_open
where id = $1 and claims = $2 and state = 'running'
for no key update
