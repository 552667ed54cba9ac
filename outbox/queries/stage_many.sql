-- Stage up to 1,000 messages in one statement, in the order given: the ids
-- are drawn in array order. It notifies the relay of each stream staged
-- that $6 names (those the wake throttle lets through) once, not per row;
-- delivered when the transaction commits.
with staged as (
    insert into pipe.outbox (stream, key, message_id, headers, payload)
    select s, k, m, h, p
      from unnest($1::text[], $2::text[], $3::uuid[], $4::jsonb[], $5::bytea[]) with ordinality as u(s, k, m, h, p, n)
     order by n
    returning stream
)
select pg_notify('pipe_outbox', s)
  from (select distinct stream as s from staged) d
 where s = any($6::text[])
