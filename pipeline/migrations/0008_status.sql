-- A run's status document: what a long-running body reports about itself
-- (a consumer's key and counts), written with its effects by FencedTx and
-- stamped with the database clock. Not journalled: it is a projection of the
-- body's own state, replaced at every write, never a state change of the run.
alter table pipe.jobs add column status jsonb, add column status_at timestamptz;

-- The cursors of consumers that keep theirs in pipe (consumer.StoredCursor):
-- one row per consumer and key, written in the transaction of the batch it
-- is the cursor past.
create table pipe.consumer_cursors (
    consumer text        not null,
    key      text        not null,
    cursor   jsonb       not null,
    saved_at timestamptz not null default pipe.now(),
    primary key (consumer, key)
);
