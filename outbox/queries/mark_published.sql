-- Mark a batch's rows ($2) of one stream ($1) published, in one statement.
update pipe.outbox
   set published_at = now(), fault = null, error = null
 where stream = $1
   and id = any($2::bigint[])
