-- The passes in flight (running, paused or waiting), newest first.
select run_id, job_id, name, target, state, held, cursor, rows_done, batches, batch_size, rate,
       total_estimate, pause_reason, last_error_code, started_at, updated_at, finished_at
from pipe.backfills
where state in ('running', 'paused', 'waiting')
order by started_at desc, run_id
limit $1
