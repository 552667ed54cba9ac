-- The columns of a relation, in column order: the name, the type as SQL
-- writes it (with its modifiers, qualified when off the search path), and
-- whether it is a timestamptz. $1 is the relation's oid.
select a.attname::text,
       format_type(a.atttypid, a.atttypmod),
       a.atttypid = 'timestamptz'::regtype
  from pg_attribute a
 where a.attrelid = $1
   and a.attnum > 0
   and not a.attisdropped
 order by a.attnum
