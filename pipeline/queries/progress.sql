-- Record a running run's progress, fenced on its claim, with a journal event.
with p as (
    update pipe.jobs j set progress = $3
    where j.id = $1 and j.claims = $2 and j.state = 'running'
    returning j.id, j.attempt
)
insert into pipe.events (job_id, kind, attempt, data)
select id, 'progress', attempt, $3 from p
