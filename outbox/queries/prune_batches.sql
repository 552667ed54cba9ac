-- Delete the batches older than $1 (an interval) but each stream's newest of
-- them: it bounds the rows the next prune deletes, and it is the stream's
-- cursor while no batch is newer.
delete from pipe.outbox_batches b
 where b.published_at < now() - $1::interval
   and exists (select 1
                 from pipe.outbox_batches n
                where n.stream = b.stream
                  and n.published_at < now() - $1::interval
                  and (n.published_at, n.upto) > (b.published_at, b.upto))
