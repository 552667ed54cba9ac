-- Inside a StepTx: lock the run's row if this attempt still holds it, and
-- journal the step's completion in the step's own transaction.
with fenced as (
    update pipe.runs_open j set has_steps = true
    where j.id = $1 and j.claims = $2 and j.state = 'running'
    returning j.id, j.attempt
), journal as (
    insert into pipe.run_events_open (job_id, kind, attempt, step, data)
    select id, 'step.completed', attempt, $3, $4 from fenced
)
select id from fenced
