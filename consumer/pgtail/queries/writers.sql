-- The transactions that hold a lock on the table ($1, an oid) a writer
-- takes — ROW EXCLUSIVE, as every INSERT, UPDATE and DELETE does, or
-- stronger — by virtual transaction id. A VACUUM's SHARE UPDATE EXCLUSIVE
-- writes no row and is not counted. The tail's own session holds none.
select coalesce(array_agg(distinct l.virtualtransaction), '{}')
  from pg_locks l
 where l.locktype = 'relation'
   and l.database = (select oid from pg_database where datname = current_database())
   and l.relation = $1::oid
   and l.granted
   and l.mode in ('RowExclusiveLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')
   and l.pid is distinct from pg_backend_pid()
