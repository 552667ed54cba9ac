-- The transitions every run has — enqueued, then claimed and completed for
-- its first eight claims — are journalled in the run's own row, appended by
-- the statement that makes them. They were one pipe.events row (and one
-- index entry) each: half of every finished no-op run's writes. In the row
-- they cost 21 bytes of a tuple the statement writes anyway. A run that is
-- claimed more than eight times journals its later claims and completions in
-- pipe.events, so a row never holds more than 17 of them. Every other event
-- (steps, failures, deferrals, operators' moves) is a pipe.events row as
-- before. Both share one sequence, so pipe.journal, the view over both, has
-- one order.
alter table pipe.jobs add column transitions bytea not null default '';

-- One transition: kind (1 byte: 1 enqueued, 2 claimed, 3 completed), its
-- place in the journal (8 bytes, from the events' own sequence), the attempt
-- (4 bytes) and when (8 bytes, microseconds since 1970).
create function pipe.transition(kind int, attempt int, at timestamptz) returns bytea
    language sql volatile
    as $$ select set_byte('\x00'::bytea, 0, kind) || int8send(nextval('pipe.events_seq_seq'))
               || int4send(attempt) || int8send((extract(epoch from at) * 1000000)::bigint) $$;

-- The transitions a row holds, decoded.
create function pipe.transitions(t bytea) returns table (seq bigint, kind text, attempt int, at timestamptz)
    language sql immutable
    as $$ select ('x' || encode(substring(t from i + 2 for 8), 'hex'))::bit(64)::bigint,
                 (array['enqueued', 'claimed', 'completed'])[get_byte(t, i)],
                 ('x' || encode(substring(t from i + 10 for 4), 'hex'))::bit(32)::int,
                 timestamptz 'epoch' + ('x' || encode(substring(t from i + 14 for 8), 'hex'))::bit(64)::bigint * interval '1 microsecond'
          from generate_series(0, length(t) - 1, 21) i $$;

-- A run's whole journal: its pipe.events rows and the transitions its row
-- holds. Ask it for one run (where job_id = ...): both halves are then read
-- through their primary keys.
create view pipe.journal as
    select e.job_id, e.seq, e.kind, e.attempt, e.step, e.data, e.at
    from pipe.events e
    union all
    select j.id, t.seq, t.kind, t.attempt, null, null, t.at
    from pipe.jobs j cross join lateral pipe.transitions(j.transitions) t;
