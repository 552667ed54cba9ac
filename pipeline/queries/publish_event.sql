-- Publish an event on the database clock and wake, in the same statement,
-- every suspended run whose wait it matches. Through the caller's transaction
-- it commits (and notifies) with it, or never happened.
with ev as (
    insert into pipe.published_events (event, payload)
    values ($1, $2)
    returning id, published_at
), woke as (
    update pipe.runs_open j set run_at = ev.published_at
    from pipe.waits w, ev
    where w.event = $1
      and $2::jsonb @> w.match
      and j.id = w.job_id
      and j.state = 'suspended'
      and j.run_at > ev.published_at
    returning j.queue
)
select ev.id,
       (select count(*) from (select pg_notify('pipe_jobs', q.queue) from (select distinct queue from woke) q) n)
from ev
