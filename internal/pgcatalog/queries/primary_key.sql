-- The columns of the relation's primary key, in key order; none without
-- one. $1 is the relation's oid.
select a.attname::text
  from pg_index i
  cross join lateral unnest(i.indkey) with ordinality as k(attnum, n)
  join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
 where i.indrelid = $1
   and i.indisprimary
 order by k.n
