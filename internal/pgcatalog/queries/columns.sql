-- The columns of the relations $1 (oids), in column order: the type with
-- its modifiers and without, its oid, NOT NULL, whether the column has a
-- default (a generated column has its expression there), is an identity or
-- generated column, the type's category (S string, U user, A array, ...)
-- and kind (b base, d domain, e enum), a domain's base type with its
-- modifiers, an array's element type, and the oid of the type a value is
-- (a domain's base type's).
select a.attrelid::int8,
       a.attname::text,
       format_type(a.atttypid, a.atttypmod),
       format_type(a.atttypid, null),
       a.atttypid::int8,
       a.attnotnull,
       a.atthasdef,
       a.attidentity <> '',
       a.attgenerated <> '',
       coalesce(bt.typcategory, t.typcategory)::text,
       t.typtype::text,
       coalesce(format_type(nullif(t.typbasetype, 0), t.typtypmod), ''),
       case when coalesce(bt.typcategory, t.typcategory) = 'A'
            then format_type(coalesce(bt.typelem, t.typelem), null) else '' end,
       coalesce(nullif(t.typbasetype, 0), t.oid)::int8
  from pg_attribute a
  join pg_type t on t.oid = a.atttypid
  left join pg_type bt on bt.oid = nullif(t.typbasetype, 0)
 where a.attrelid = any($1::int8[])
   and a.attnum > 0
   and not a.attisdropped
 order by a.attrelid, a.attnum
