-- Spend one unit of a fleet-wide budget ($2 per $3 window). Answers whether
-- it was spent and, when not, the seconds until the window rolls over.
with clock as (
    select pipe.now() as now
), spend as (
    insert into pipe.rate_buckets as b (bucket, window_start, spent)
    select $1, c.now, 1 from clock c
    on conflict (bucket) do update set
        window_start = case when b.window_start + $3::interval <= (select now from clock)
                            then (select now from clock) else b.window_start end,
        spent        = case when b.window_start + $3::interval <= (select now from clock)
                            then 1 else b.spent + 1 end
    where b.window_start + $3::interval <= (select now from clock) or b.spent < $2
    returning bucket
)
select exists (select 1 from spend),
       coalesce((select extract(epoch from (b.window_start + $3::interval - c.now))
                 from pipe.rate_buckets b, clock c where b.bucket = $1 and not exists (select 1 from spend)), 0)::float8
