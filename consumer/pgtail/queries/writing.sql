-- Whether any of the transactions $2 (virtual transaction ids) still holds
-- its lock on the table $1: a lock is held to the end of its transaction.
select exists (
    select 1
      from pg_locks l
     where l.locktype = 'relation'
       and l.relation = $1::oid
       and l.virtualtransaction = any($2::text[])
       and l.granted)
