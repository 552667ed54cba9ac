-- Take a stream's lock ($1) for the transaction: the relay's batches and
-- `pipe outbox retry` take it in turn.
select pg_advisory_xact_lock($1)
