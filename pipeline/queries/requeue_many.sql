-- Put up to $5 finished rows back to ready with a fresh attempt budget,
-- skipping rows whose key a live run holds (they are not counted as left).
with movable as (
    select j.id from pipe.jobs j
    where j.state = $1
      and ($2 = '' or j.queue = $2) and ($3 = '' or j.name = $3) and ($4 = '' or j.tenant = $4)
      and not exists (
          select 1 from pipe.jobs l
          where l.name = j.name and l.tenant = j.tenant and l.idem_key = j.idem_key
            and l.state in ('ready', 'delayed', 'running', 'suspended'))
), picked as (
    select distinct on (j.name, j.tenant, j.idem_key) j.id
    from pipe.jobs j join movable m on m.id = j.id
    order by j.name, j.tenant, j.idem_key, j.id desc
    limit $5
), moved as (
    update pipe.jobs j set state = 'ready', attempt = 0, run_at = pipe.now(), finished_at = null, result = null
    from picked p where j.id = p.id
    returning j.id, j.attempt
), journal as (
    insert into pipe.events (job_id, kind, attempt, data)
    select id, 'requeued', attempt, '{"bulk": true}' from moved
)
select (select count(*) from moved), (select count(*) from movable) - (select count(*) from moved),
       (select count(*) from (select pg_notify('pipe_jobs', q.queue) from (select distinct j.queue from pipe.jobs j where j.id = any(array(select id from moved))) q) n)
