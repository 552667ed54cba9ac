-- The step events of one open run, in journal order, for the worker's
-- replay: runs_open's journal alone. journal_steps reads any run's; change
-- the two together.
select kind, step, data
from pipe.run_events_open
where job_id = $1
  and kind in ('step.started', 'step.completed', 'step.resolved', 'rewound', 'slept', 'wait.started')
order by seq
