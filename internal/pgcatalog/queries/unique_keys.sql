-- The column sets of the relation's unique, non-partial, plain-column
-- indexes, each sorted: an upsert's conflict target must be one of them,
-- an ordering key holds one, REFRESH ... CONCURRENTLY needs one. $1 is the
-- relation's oid.
select array(select a.attname::text
               from pg_attribute a
              where a.attrelid = i.indrelid and a.attnum = any(i.indkey)
              order by a.attname)
  from pg_index i
 where i.indrelid = $1
   and i.indisunique
   and i.indpred is null
   and i.indexprs is null
