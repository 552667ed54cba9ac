-- The relation a tail follows, by its quoted, possibly schema-qualified
-- name ($1), with the type of its id column ($2, literal) and the sequence
-- that column owns (serial or identity), if any.
select c.oid, c.relkind::text,
       (select a.atttypid::regtype::text
          from pg_attribute a
         where a.attrelid = c.oid and a.attname = $2 and a.attnum > 0 and not a.attisdropped),
       pg_get_serial_sequence($1, $2)
  from pg_class c
 where c.oid = to_regclass($1)
