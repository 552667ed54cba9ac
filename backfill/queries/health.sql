-- The database's health for a pass: the largest replay lag of a replica in
-- seconds (null without replicas); the age in seconds of the oldest
-- transaction of the pass's own database holding back vacuum, the pass's
-- own session excepted (a transaction of another database of the server
-- does not hold back the vacuum of this one's tables); and the oldest
-- database's frozen transaction id age.
-- A session running a VACUUM that is not FULL (an autovacuum worker's, or
-- one typed) is not counted: PostgreSQL leaves it out of every other
-- vacuum's horizon, so however long it runs it holds nothing back, and a
-- pass held while autovacuum works through a big table would wait for it.
-- (The ANALYZE that may follow in the same autovacuum, which does hold a
-- snapshot, is read as its VACUUM: it reads a sample, so it is short.)
select
    (select extract(epoch from max(replay_lag))::float8 from pg_stat_replication),
    (select coalesce(extract(epoch from max(clock_timestamp() - xact_start)), 0)::float8
       from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and (backend_xid is not null or backend_xmin is not null)
        and xact_start is not null
        and not (state = 'active' and query ~* '^\s*(autovacuum:\s*)?vacuum\M' and query !~* '\mfull\M')),
    (select max(age(datfrozenxid))::bigint from pg_database)
