-- The names of result column types: $1 the type oids, $2 their modifiers.
-- Answers, in order, the type with its modifiers (for the manifest), the
-- type without (for casts), and an array's element type (0 for others).
select format_type(u.o::oid, u.m),
       format_type(u.o::oid, null),
       case when t.typcategory = 'A' then t.typelem::int8 else 0 end
  from unnest($1::int8[], $2::int4[]) with ordinality as u(o, m, n)
  join pg_type t on t.oid = u.o::oid
 order by u.n
