-- The table a quoted, possibly schema-qualified name resolves to: its oid
-- and kind (r a table, p a partitioned table; anything else is not a
-- table the walk can treat). $1 is the quoted name.
select c.oid, c.relkind::text
  from pg_class c
 where c.oid = to_regclass($1)
