-- Every table of the database outside the system schemas (partitions
-- left out: their parent is the table), for the proof's search of every
-- stored row.
select c.oid::int8
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
 where c.relkind in ('r', 'p')
   and not c.relispartition
   and n.nspname not in ('pg_catalog', 'information_schema', 'pipe')
   and n.nspname not like 'pg_toast%'
   and n.nspname not like 'pg_temp%'
 order by c.oid
