-- Dead-letter one row ($2) of a stream ($1) with the broker's refusal ($3).
update pipe.outbox
   set fault = 'dead', error = $3
 where stream = $1
   and id = $2
