-- The last value the sequence handed out, to any session, committed or not;
-- NULL before the first.
select pg_sequence_last_value($1::oid::regclass)
