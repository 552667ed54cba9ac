-- One upsert of a rollup (and tenant) at a time across the fleet, held to
-- the end of the run's transaction: a run that waits reads what the other
-- committed. $1 is the lock's name.
select pg_advisory_xact_lock(hashtextextended($1, 0))
