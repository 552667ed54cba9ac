-- The step events of one run, open or finished, in journal order, for an
-- operator's rewind or resolve (journal_steps_open is the worker's, for an
-- open run: change the two together).
select kind, step, data
from pipe.events
where job_id = $1
  and kind in ('step.started', 'step.completed', 'step.resolved', 'rewound', 'slept', 'wait.started')
order by seq
