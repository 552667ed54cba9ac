-- The blocks relation $1 has now. Read inside a snapshot, it covers every
-- row the snapshot sees: rows in later blocks came after it.
select coalesce(pg_relation_size($1::oid::regclass), 0) / current_setting('block_size')::bigint
