-- The relation a quoted, possibly schema-qualified name resolves to: its
-- kind (m is a materialized view; r, p tables; v a plain view; f a foreign
-- table), whether it holds data (a materialized view made WITH NO DATA
-- does not until its first refresh), and whether a unique, non-partial,
-- plain-column index — what REFRESH ... CONCURRENTLY needs — is on it.
-- No row: no such relation.
select c.relkind::text,
       c.relispopulated,
       exists (select 1
                 from pg_index i
                where i.indrelid = c.oid
                  and i.indisunique
                  and i.indpred is null
                  and i.indexprs is null)
  from pg_class c
 where c.oid = to_regclass($1)
