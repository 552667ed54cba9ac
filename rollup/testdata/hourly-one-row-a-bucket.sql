with grouped as (
    select pipe.bucket_start($1, "at", $2) as "Hour",
           count(*) as "hits",
           count("user""id") as "with user",
           min("ms") as "fastest",
           max("ms") as "slowest",
           avg("ms") as "mean",
           count(*) as "pipe.rows"
      from "web"."hits"
     where "at" >= $3
     group by 1
),
points as (
    select "Hour" as "Hour", "hits", "with user", "fastest", "slowest", "mean", "pipe.rows"
      from grouped
),
written as (
    insert into "analytics"."Hits Per Hour" as t ("Hour", "hits", "with user", "fastest", "slowest", "mean")
    select "Hour", "hits", "with user", "fastest", "slowest", "mean" from points
    on conflict ("Hour") do update
       set "hits" = excluded."hits",
           "with user" = excluded."with user",
           "fastest" = excluded."fastest",
           "slowest" = excluded."slowest",
           "mean" = excluded."mean"
     where (t."hits", t."with user", t."fastest", t."slowest", t."mean") is distinct from (excluded."hits", excluded."with user", excluded."fastest", excluded."slowest", excluded."mean")
    returning 1
)
select (select coalesce(sum("pipe.rows"), 0) from points)::int8,
       (select count(*) from points),
       (select count(*) from written)
