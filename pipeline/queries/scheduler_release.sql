-- Give up the scheduler lease if $1 holds it, so another scheduler may lead
-- at its next renewal instead of after the TTL.
delete from pipe.scheduler_leader where holder = $1
