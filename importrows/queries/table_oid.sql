-- The table a quoted, possibly schema-qualified name resolves to, and its
-- kind: r (table) or p (partitioned table) can be imported into.
select c.oid, c.relkind::text
  from pg_class c
 where c.oid = to_regclass($1)
