-- Delete up to $5 rows in state $1 (filtered by queue, name, tenant) and
-- their journals; answer how many went and how many match still. An
-- operator's removal, not retention: retention drops whole partitions.
with picked as (
    select id from pipe.runs
    where state = $1 and state <> 'running'
      and ($2 = '' or queue = $2) and ($3 = '' or name = $3) and ($4 = '' or tenant = $4)
    order by id
    limit $5
    for update skip locked
), journal as (
    delete from pipe.run_events e where e.job_id = any(array(select id from picked))
), gone as (
    delete from pipe.runs j using picked p where j.id = p.id returning j.id
)
select (select count(*) from gone),
       (select count(*) from pipe.runs
        where state = $1 and ($2 = '' or queue = $2) and ($3 = '' or name = $3) and ($4 = '' or tenant = $4))
       - (select count(*) from gone),
       0::bigint -- no queue to wake: nothing became claimable
