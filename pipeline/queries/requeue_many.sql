-- Put up to $5 finished rows back to ready with a fresh attempt budget,
-- skipping rows whose key an open run holds (they are not counted as left).
-- The rows move back to runs_open, and their journals with them.
with movable as (
    select j.id from pipe.runs j
    where j.state = $1 and j.state in ('done', 'failed', 'dead', 'cancelled')
      and ($2 = '' or j.queue = $2) and ($3 = '' or j.name = $3) and ($4 = '' or j.tenant = $4)
      and not exists (
          select 1 from pipe.runs_open l
          where l.name = j.name and l.tenant = j.tenant and l.idem_key = j.idem_key)
), picked as (
    select distinct on (j.name, j.tenant, j.idem_key) j.id
    from pipe.runs j join movable m on m.id = j.id
    where j.state in ('done', 'failed', 'dead', 'cancelled')
    order by j.name, j.tenant, j.idem_key, j.id desc
    limit $5
), moved as (
    update pipe.runs j set state = 'ready', attempt = 0, run_at = pipe.now(), finished_at = null, result = null
    from picked p where j.id = p.id and j.state in ('done', 'failed', 'dead', 'cancelled')
    returning j.id, j.attempt, j.queue
), moved_journal as (
    update pipe.run_events e set run_state = 'open', run_finished_at = null
    where e.run_state <> 'open' and e.job_id = any(array(select id from moved))
), journal as (
    insert into pipe.run_events_open (job_id, kind, attempt, data)
    select id, 'requeued', attempt, '{"bulk": true}' from moved
)
select (select count(*) from moved), (select count(*) from movable) - (select count(*) from moved),
       (select count(*) from (select pg_notify('pipe_jobs', q.queue) from (select distinct queue from moved) q) n)
