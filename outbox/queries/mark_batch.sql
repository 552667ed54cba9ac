-- Record a committed batch of one stream ($1): its cursor ($2), the rows it
-- published ($3), the relay ($4).
insert into pipe.outbox_batches (stream, upto, rows, relay)
values ($1, $2, $3, $4)
