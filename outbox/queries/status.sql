-- Each stream's state, streams found by a loose scan of the primary key
-- (stream, id): the rows waiting for the relay (past the newest batch's
-- cursor, no fault), the oldest of them and its age, the rows published in
-- the last minute, the dead, held and released rows. It reads each stream's
-- waiting rows, its faults and last minute's batches.
with recursive streams as (
    select min(stream) as name from pipe.outbox
    union all
    select (select min(o.stream) from pipe.outbox o where o.stream > s.name)
      from streams s
     where s.name is not null
)
select s.name,
       w.waiting,
       w.oldest,
       coalesce(extract(epoch from now() - w.oldest), 0)::float8,
       p.last_minute,
       f.dead, f.held, f.retry
  from streams s
 cross join lateral (
        select coalesce((select b.upto
                           from pipe.outbox_batches b
                          where b.stream = s.name
                          order by b.published_at desc, b.upto desc
                          limit 1), 0) as upto) c
 cross join lateral (
        select count(*) as waiting, min(o.staged_at) as oldest
          from pipe.outbox o
         where o.stream = s.name and o.id > c.upto and o.fault is null) w
 cross join lateral (
        select coalesce(sum(b.rows), 0)::bigint as last_minute
          from pipe.outbox_batches b
         where b.stream = s.name and b.published_at > now() - interval '1 minute') p
 cross join lateral (
        select count(*) filter (where o.fault = 'dead') as dead,
               count(*) filter (where o.fault = 'held') as held,
               count(*) filter (where o.fault = 'retry') as retry
          from pipe.outbox o
         where o.stream = s.name and o.fault is not null) f
 where s.name is not null
 order by s.name
