-- The stream's ($1) faults a batch must respect, under the stream's lock
-- ($3: the relay's batches and `pipe outbox retry` take it in turn): each
-- key with a dead row, and each key with a released row still to publish
-- beyond the batch's own ($2). The lock is the outer side of the join, so
-- it is taken even when there are no faults (one row of nulls then).
with lock as materialized (select pg_advisory_xact_lock($3))
select o.fault, o.key
  from lock
  left join pipe.outbox o
    on o.stream = $1
   and o.fault in ('dead', 'retry')
   and not (o.id = any($2::bigint[]))
 group by o.fault, o.key
