-- Housekeeping beside the partitions' retention (maintain.go drops whole
-- partitions of finished runs): forget the waits of runs no longer open,
-- roll counters into their tiers, drop expired workers, and published
-- events and webhook delivery rows older than $1 (the dead retention).
with clock as (
    select pipe.now() as now
), waits as (
    delete from pipe.waits w
    where not exists (select 1 from pipe.runs_open o where o.id = w.job_id)
), tiered as (
    -- the bucket each old counter row belongs in: 5 minutes past 24 h, 1 hour past 7 d
    select job, bucket,
           case when bucket < c.now - interval '7 days' then date_trunc('hour', bucket)
                else date_trunc('hour', bucket) + floor(extract(minute from bucket) / 5) * interval '5 minutes' end as tier
    from pipe.job_counters, clock c
    where bucket < c.now - interval '24 hours' and bucket >= c.now - interval '30 days'
), moving as (
    delete from pipe.job_counters k using tiered t
    where k.job = t.job and k.bucket = t.bucket and t.bucket <> t.tier
    returning k.job, t.tier, k.done, k.retried, k.failed, k.dead, k.duration_ms
), rolled as (
    insert into pipe.job_counters as k (job, bucket, done, retried, failed, dead, duration_ms)
    select job, tier, sum(done), sum(retried), sum(failed), sum(dead), sum(duration_ms) from moving group by job, tier
    on conflict (job, bucket) do update set
        done = k.done + excluded.done, retried = k.retried + excluded.retried, failed = k.failed + excluded.failed,
        dead = k.dead + excluded.dead, duration_ms = k.duration_ms + excluded.duration_ms
), expired_counters as (
    delete from pipe.job_counters k using clock c where k.bucket < c.now - interval '30 days'
), published as (
    delete from pipe.published_events e using clock c where e.published_at < c.now - $1::interval returning e.id
), workers as (
    delete from pipe.workers w using clock c where w.expires_at < c.now - interval '1 day' returning w.id
), deliveries as (
    -- the webhook ledger's rows are kept as long as the dead runs they may explain
    delete from pipe.webhook_deliveries d
    where d.id in (select id from pipe.webhook_deliveries, clock c where at < c.now - $1::interval limit 10000)
    returning d.id
)
select (select count(*) from moving),
       (select count(*) from published), (select count(*) from workers),
       (select count(*) from deliveries)
