-- The catalog's estimate of a table's rows (null before its first ANALYZE).
select case when reltuples < 0 then null else reltuples::bigint end
from pg_class where oid = $1
