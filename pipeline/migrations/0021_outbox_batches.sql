-- The outbox marks what it published by batch, not by row: one row here per
-- batch a relay committed, beside the batch's cursor, instead of an update of
-- every published row (which rewrote each row whole, payload and all, and
-- halved the relay's speed). A row of pipe.outbox is published when its id is
-- at most the newest batch's upto for its stream and it has no fault: the
-- relay's table tail never passes a row still in flight, so every row up to
-- the cursor was read, and each one it did not publish carries its fault
-- (dead, held, retry). A released row the relay publishes again loses its
-- fault.
create table pipe.outbox_batches (
    stream       text        not null,
    -- the batch's cursor: every row of the stream up to it is published or
    -- carries a fault
    upto         bigint      not null,
    -- the rows the batch published (released ones included)
    rows         integer     not null,
    relay        text        not null,
    published_at timestamptz not null default now(),
    primary key (stream, published_at, upto)
);

-- Rows published before this migration keep their state: one batch per
-- stream up to its newest published row, at the time it was published.
insert into pipe.outbox_batches (stream, upto, rows, relay, published_at)
select stream, max(id), 0, '', max(published_at)
  from pipe.outbox
 where published_at is not null
 group by stream;

alter table pipe.outbox drop column published_at;
