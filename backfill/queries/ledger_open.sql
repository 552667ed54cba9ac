-- A pass's ledger row, made by its plan step; a resumed run finds its own.
insert into pipe.backfills (run_id, job_id, name, target, batch_size, total_estimate)
values ($1, $2, $3, $4, $5, $6)
on conflict (run_id) do nothing
