-- Housekeeping: purge finished runs past retention ($1 done/cancelled, $2
-- dead/failed) with their journals; roll counters into their tiers; drop
-- expired workers, old published events and old webhook delivery rows.
with clock as (
    select pipe.now() as now
), old as (
    select j.id from pipe.jobs j, clock c
    where (j.state in ('done', 'cancelled') and j.finished_at < c.now - $1::interval)
       or (j.state in ('dead', 'failed') and j.finished_at < c.now - $2::interval)
    limit 10000
), journal as (
    delete from pipe.events e using old o where e.job_id = o.id
), waits as (
    delete from pipe.waits w using old o where w.job_id = o.id
), purged as (
    delete from pipe.jobs j using old o where j.id = o.id returning j.id
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
    delete from pipe.published_events e using clock c where e.published_at < c.now - $2::interval returning e.id
), workers as (
    delete from pipe.workers w using clock c where w.expires_at < c.now - interval '1 day' returning w.id
), deliveries as (
    -- the webhook ledger's rows are kept as long as the dead runs they may explain
    delete from pipe.webhook_deliveries d
    where d.id in (select id from pipe.webhook_deliveries, clock c where at < c.now - $2::interval limit 10000)
    returning d.id
)
select (select count(*) from purged), (select count(*) from moving),
       (select count(*) from published), (select count(*) from workers),
       (select count(*) from deliveries)
