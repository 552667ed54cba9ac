-- A sequence's increment and cache, by its oid ($1).
select s.seqincrement, s.seqcache
  from pg_sequence s
 where s.seqrelid = $1
