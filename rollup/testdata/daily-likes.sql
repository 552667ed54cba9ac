with grouped as (
    select "org_id",
           date_trunc($1, "created_at" at time zone $2) as "day",
           count(*) as "likes",
           sum("weight") as "weight",
           count(*) as "pipe.rows"
      from "likes"
     where "created_at" >= $3
     group by 1, 2
),
points as (
    select "org_id", pipe.local_start("day", $2) as "day", "likes", "weight", "pipe.rows"
      from grouped
),
written as (
    insert into "likes_per_day" as t ("org_id", "day", "likes", "weight")
    select "org_id", "day", "likes", "weight" from points
    on conflict ("org_id", "day") do update
       set "likes" = excluded."likes",
           "weight" = excluded."weight"
     where (t."likes", t."weight") is distinct from (excluded."likes", excluded."weight")
    returning 1
)
select (select coalesce(sum("pipe.rows"), 0) from points)::int8,
       (select count(*) from points),
       (select count(*) from written)
