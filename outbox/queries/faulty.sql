-- Whether the stream ($1) holds a dead, held or released row.
select exists (select 1 from pipe.outbox where stream = $1 and fault is not null)
