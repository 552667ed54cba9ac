-- The ledger, newest first; $1 a run id, $2 a name, both null for every pass.
select run_id, job_id, name, target, state, held, cursor, rows_done, batches, batch_size, rate,
       total_estimate, pause_reason, last_error_code, started_at, updated_at, finished_at
from pipe.backfills
where ($1::uuid is null or run_id = $1) and ($2::text is null or name = $2)
order by started_at desc, run_id
limit $3
