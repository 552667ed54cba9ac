-- Every foreign key of the database, once (a partition's copy of its
-- parent's key is left out): its name, the referencing table and columns,
-- the referenced table and columns (in the key's order), what a delete of
-- the referenced row does (a no action, r restrict, c cascade, n set null,
-- d set default) and the match type (s simple, f full).
select c.conname::text,
       c.conrelid::int8,
       array(select a.attname::text
               from unnest(c.conkey) with ordinality as k(attnum, n)
               join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
              order by k.n),
       c.confrelid::int8,
       array(select a.attname::text
               from unnest(c.confkey) with ordinality as k(attnum, n)
               join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum
              order by k.n),
       c.confdeltype::text,
       c.confmatchtype::text
  from pg_constraint c
 where c.contype = 'f'
   and c.conparentid = 0
 order by c.conrelid, c.conname
