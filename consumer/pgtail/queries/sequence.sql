-- A sequence's oid, increment and cache, by its quoted name.
select s.seqrelid, s.seqincrement, s.seqcache
  from pg_sequence s
 where s.seqrelid = to_regclass($1)
