-- Park run @id until @until, fenced on its claim @claims: the attempt is
-- given back (a suspension is control flow, not a failure). @kind, @step and
-- @data are the journal event; @event, @match and @since, when set, the
-- waits row of a WaitForEvent.
with s as (
    update pipe.runs_open j set
        state       = 'suspended',
        attempt     = j.attempt - 1,
        -- a wait whose event was published meanwhile is due at once
        run_at      = case when @event::text is not null and exists (
                          select 1 from pipe.published_events e
                          where e.event = @event and e.published_at >= @since and e.payload @> @match::jsonb)
                      then pipe.now() else @until end,
        has_steps   = true,
        lease_until = null,
        worker_id   = null
    where j.id = @id and j.claims = @claims and j.state = 'running'
    returning j.id, j.attempt
), journal as (
    insert into pipe.run_events_open (job_id, kind, attempt, step, data)
    select id, @kind, attempt, @step, @data from s
), wait as (
    insert into pipe.waits (job_id, step, event, match, since)
    select id, @step, @event, @match, @since from s where @event::text is not null
    on conflict (job_id, step) do nothing
), freed as (
    delete from pipe.job_leases l using s where l.job_id = s.id
)
select id from s
