-- Stage one message in the caller's transaction.
insert into pipe.outbox (stream, key, message_id, headers, payload)
values ($1, $2, $3, $4, $5)
