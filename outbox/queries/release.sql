-- Release a stream's ($1) dead and held rows — of some keys ($2) or, when $2
-- is null, all of them — for the relay to publish again in id order. Run under the
-- stream's lock, so that no batch holds a row after the release.
update pipe.outbox
   set fault = 'retry', error = null
 where stream = $1
   and fault in ('dead', 'held')
   and ($2::text[] is null or key = any($2::text[]))
