-- The relation a quoted, possibly schema-qualified name resolves to, and
-- its kind: r (table), p (partitioned table), v (view), m (materialized
-- view), f (foreign table). No row: no such relation.
select c.oid, c.relkind::text
  from pg_class c
 where c.oid = to_regclass($1)
