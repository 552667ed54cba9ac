with grouped as (
    select "org_id",
           "region",
           date_trunc($3, "paid_at" at time zone $4) as "month",
           sum("total") as "revenue",
           count(*) as "pipe.rows"
      from "orders"
     where "paid_at" >= $5
       and (status = $1 and total > $2)
     group by 1, 2, 3
),
points as (
    select "org_id", "region", pipe.local_start("month", $4) as "month", "revenue", "pipe.rows"
      from grouped
),
written as (
    insert into "revenue_monthly" as t ("org_id", "region", "month", "revenue")
    select "org_id", "region", "month", "revenue" from points
    on conflict ("org_id", "region", "month") do update
       set "revenue" = excluded."revenue"
     where (t."revenue") is distinct from (excluded."revenue")
    returning 1
)
select (select coalesce(sum("pipe.rows"), 0) from points)::int8,
       (select count(*) from points),
       (select count(*) from written)
