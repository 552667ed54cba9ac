-- Run up to $5 rows waiting on their run time now.
with picked as (
    select id from pipe.runs_open
    where state = $1 and run_at > pipe.now()
      and ($2 = '' or queue = $2) and ($3 = '' or name = $3) and ($4 = '' or tenant = $4)
    order by run_at
    limit $5
    for update skip locked
), moved as (
    update pipe.runs_open j set state = 'ready', run_at = pipe.now()
    from picked p where j.id = p.id
    returning j.id, j.attempt, j.queue
), journal as (
    insert into pipe.run_events_open (job_id, kind, attempt)
    select id, 'promoted', attempt from moved
)
select (select count(*) from moved),
       (select count(*) from pipe.runs_open
        where state = $1 and run_at > pipe.now()
          and ($2 = '' or queue = $2) and ($3 = '' or name = $3) and ($4 = '' or tenant = $4))
       - (select count(*) from moved),
       (select count(*) from (select pg_notify('pipe_jobs', q.queue) from (select distinct queue from moved) q) n)
