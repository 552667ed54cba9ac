-- The tables $1 (oids): the name a plan shows (without the schema when the
-- search path finds it), the schema and table names for quoting, what
-- the role running the erase may do to them, and whether it is partitioned.
select c.oid::int8,
       case when pg_table_is_visible(c.oid) then c.relname::text
            else n.nspname || '.' || c.relname end,
       n.nspname::text,
       c.relname::text,
       has_table_privilege(c.oid, 'SELECT'),
       has_table_privilege(c.oid, 'UPDATE'),
       has_table_privilege(c.oid, 'DELETE'),
       has_table_privilege(c.oid, 'INSERT'),
       c.relkind = 'p'
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
 where c.oid = any($1::int8[])
