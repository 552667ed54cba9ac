-- Park a run until $3, fenced on its claim: the attempt is given back (a
-- suspension is control flow, not a failure). $4..$6 are the journal event;
-- $7..$9, when set, the waits row of a WaitForEvent.
with s as (
    update pipe.jobs j set
        state       = 'suspended',
        attempt     = j.attempt - 1,
        -- a wait whose event was published meanwhile is due at once
        run_at      = case when $7::text is not null and exists (
                          select 1 from pipe.published_events e
                          where e.event = $7 and e.published_at >= $9 and e.payload @> $8::jsonb)
                      then pipe.now() else $3 end,
        has_steps   = true,
        lease_until = null,
        worker_id   = null
    where j.id = $1 and j.claims = $2 and j.state = 'running'
    returning j.id, j.attempt
), journal as (
    insert into pipe.events (job_id, kind, attempt, step, data)
    select id, $4, attempt, $5, $6 from s
), wait as (
    insert into pipe.waits (job_id, step, event, match, since)
    select id, $5, $7, $8, $9 from s where $7::text is not null
    on conflict (job_id, step) do nothing
), freed as (
    delete from pipe.job_leases l using s where l.job_id = s.id
)
select id from s
