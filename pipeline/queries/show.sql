-- One job row in full, for `pipe jobs show`.
select id, run_id, name, queue, tenant, idem_key, state, attempt, max_attempts, run_at, created_at, finished_at,
       case when sensitive then '"[redacted]"'::jsonb else input end, result, last_error, started_at, lease_until, worker_id, progress,
       concurrency_key
from pipe.jobs
where id = $1
