-- Delete up to $2 rows published more than $1 (an interval) ago, by the
-- database clock; the caller repeats until fewer come back.
delete from pipe.outbox
 where ctid = any (array(
        select ctid from pipe.outbox
         where published_at < now() - $1::interval
         limit $2))
