-- The indexes of the tables $1 (oids): their leading plain columns in
-- index order (up to the first expression), whether they are unique or
-- the primary key, and whether they are partial or hold an expression.
select i.indrelid::int8,
       array(select a.attname::text
               from unnest(i.indkey[0:i.indnkeyatts - 1]) with ordinality as k(attnum, n)
               join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
              where k.attnum > 0
              order by k.n),
       i.indisunique,
       i.indisprimary,
       i.indpred is not null or i.indexprs is not null
  from pg_index i
 where i.indrelid = any($1::int8[])
   and i.indisvalid
 order by i.indrelid, i.indisprimary desc, i.indexrelid
