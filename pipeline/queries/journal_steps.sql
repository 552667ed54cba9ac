-- The step events of one run, in journal order, for replay.
select kind, step, data
from pipe.events
where job_id = $1
  and kind in ('step.started', 'step.completed', 'step.resolved', 'rewound', 'slept', 'wait.started')
order by seq
