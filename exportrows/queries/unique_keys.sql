-- The column sets of the relation's unique, non-partial, plain-column
-- indexes: an ordering key is unique when it holds one of them.
select array(select a.attname::text
               from pg_attribute a
              where a.attrelid = i.indrelid and a.attnum = any(i.indkey))
  from pg_index i
 where i.indrelid = $1
   and i.indisunique
   and i.indpred is null
   and i.indexprs is null
