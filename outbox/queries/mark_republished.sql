-- Released rows ($2) of one stream ($1) the relay published again: their
-- fault goes, and the cursor already passed them, so they count as
-- published.
update pipe.outbox
   set fault = null, error = null
 where stream = $1
   and id = any($2::bigint[])
