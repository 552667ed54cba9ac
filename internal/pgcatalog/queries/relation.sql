-- The relation a quoted, possibly schema-qualified name ($1) resolves to,
-- as the search path finds it: its oid, its kind (r table, p partitioned
-- table, v view, m materialized view, f foreign table, S sequence...) and
-- whether it holds data (false only for a materialized view made WITH NO
-- DATA). No row: no such relation.
select c.oid, c.relkind::text, c.relispopulated
  from pg_class c
 where c.oid = to_regclass($1)
