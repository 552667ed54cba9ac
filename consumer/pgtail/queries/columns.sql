-- The columns of a relation, in column order. $1 is the relation's oid.
select a.attname::text
  from pg_attribute a
 where a.attrelid = $1
   and a.attnum > 0
   and not a.attisdropped
 order by a.attnum
