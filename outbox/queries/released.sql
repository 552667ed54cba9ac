-- The stream's ($1) released rows, in id order, at most $2: the relay
-- publishes them ahead of the stream's new rows.
select id, stream, key, message_id, headers, payload
  from pipe.outbox
 where stream = $1
   and fault = 'retry'
 order by id
 limit $2
