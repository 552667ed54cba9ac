-- Set rows ($2) of one stream ($1) held or queued behind released rows
-- ($3: held or retry).
update pipe.outbox
   set fault = $3
 where stream = $1
   and id = any($2::bigint[])
