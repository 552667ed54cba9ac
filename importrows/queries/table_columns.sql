-- The writable columns of a table, in column order: name, type as
-- format_type spells it, NOT NULL, and whether the column fills itself
-- (a default or an identity). $1 is the table's regclass.
select a.attname::text,
       format_type(a.atttypid, a.atttypmod),
       a.attnotnull,
       a.atthasdef or a.attidentity <> '',
       a.attgenerated <> ''
  from pg_attribute a
 where a.attrelid = $1
   and a.attnum > 0
   and not a.attisdropped
 order by a.attnum
