-- The tables $1 (oids): whether the search path finds them (a plan then
-- shows a name without its schema), the schema and table names, what the
-- role running the erase may do to them, and whether it is partitioned.
select c.oid::int8,
       pg_table_is_visible(c.oid),
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
