-- The transactional outbox (package outbox): messages an application stages
-- in its own transaction, for a relay to publish to a broker once they have
-- committed. A rolled-back staging leaves no row; a committed one is
-- published at least once.
--
-- The id is drawn from the identity's sequence (cache 1) inside the insert,
-- so the relay's table tail (consumer/pgtail) reads rows in id order without
-- passing one still in flight. The primary key (stream, id) is the relay's
-- one index: each stream's relay reads its rows in id order through it, and
-- marking a row published touches no indexed column (a HOT update).
create table pipe.outbox (
    id           bigint      generated always as identity,
    stream       text        not null,
    key          text        not null default '',
    message_id   uuid        not null,
    headers      jsonb,
    payload      bytea       not null,
    staged_at    timestamptz not null default now(),
    published_at timestamptz,
    -- dead: the broker refused the row for good (error says why); held: a
    -- row its stream's ordering keeps behind a dead one; retry: released by
    -- the operator, published by the relay ahead of the stream's new rows.
    fault        text        check (fault in ('dead', 'held', 'retry')),
    error        jsonb,
    primary key (stream, id)
);

-- The rows out of the normal flow, few: the relay asks for them at every
-- batch.
create index outbox_faults on pipe.outbox (stream, id) where fault is not null;
