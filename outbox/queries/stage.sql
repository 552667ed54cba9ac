-- Stage one message in the caller's transaction and, when $6 (the wake
-- throttle lets it), notify the stream's relay: the notification is
-- delivered when the transaction commits, never when it rolls back.
with staged as (
    insert into pipe.outbox (stream, key, message_id, headers, payload)
    values ($1, $2, $3, $4, $5)
    returning stream
)
select pg_notify('pipe_outbox', stream) from staged where $6::boolean
