-- Delete up to $2 published rows whose batch committed more than $1 (an
-- interval) ago, by the database clock; the caller repeats until fewer come
-- back. Each stream's bound is the newest batch older than that (streams
-- found by a loose scan of pipe.outbox_batches' key); rows with a fault are
-- never deleted.
with recursive streams as (
    select min(stream) as name from pipe.outbox_batches
    union all
    select (select min(b.stream) from pipe.outbox_batches b where b.stream > s.name)
      from streams s
     where s.name is not null
), bounds as (
    select s.name as stream, o.upto
      from streams s
     cross join lateral (
            select b.upto
              from pipe.outbox_batches b
             where b.stream = s.name and b.published_at < now() - $1::interval
             order by b.published_at desc, b.upto desc
             limit 1) o
     where s.name is not null
)
delete from pipe.outbox
 where ctid = any (array(
        select o.ctid
          from bounds b
          join pipe.outbox o on o.stream = b.stream and o.id <= b.upto and o.fault is null
         limit $2))
