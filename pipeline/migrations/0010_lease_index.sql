-- Lapsed leases are found by lease_until alone. The index no longer names
-- state = 'running' in its predicate: with it, a batched settle's
-- "state = 'running'" matched the index, and when the statistics held few
-- running rows (as after an ANALYZE of a queue at rest) the planner read
-- every running row through it to settle a batch, instead of finding the
-- batch's rows by their ids. A lease is set exactly while a run is running:
-- every transition out of running clears it.
drop index pipe.jobs_leased;
create index jobs_leased on pipe.jobs (lease_until) where lease_until is not null;
