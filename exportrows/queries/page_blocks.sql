-- How many blocks a snapshot export's page reads to hold about $2 rows of
-- relation $1: from the planner's rows a block where it has them, else
-- from the rows a block holds as the relation is now (a table never
-- analyzed), else 100 (an empty one).
select greatest(1, ceil($2::float8 / greatest(1, case
         when c.relpages > 0 and c.reltuples > 0 then c.reltuples / c.relpages
         else 100 end)))::bigint
  from pg_class c
 where c.oid = $1
