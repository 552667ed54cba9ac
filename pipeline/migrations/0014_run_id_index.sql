-- 0001 was edited after its release (commit 8da98df): jobs_run_id became a
-- partial index holding only the run ids a caller named (run_id <> id), so
-- that the default, the job's own id, stays out of the index and out of
-- every enqueue's index work. A database migrated with the earlier 0001
-- has the full index; this builds the partial one in its place, under the
-- same name (the enqueue names a reused run id by it). Built in the
-- migration's transaction, which blocks writes to pipe.jobs while it
-- builds. A database migrated with the edited 0001 already has it and is
-- left alone.
do $$
begin
    if exists (
        select
        from pg_index i
        join pg_class c on c.oid = i.indexrelid
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'pipe' and c.relname = 'jobs_run_id' and i.indpred is null
    ) then
        drop index pipe.jobs_run_id;
        create unique index jobs_run_id on pipe.jobs (run_id) where run_id <> id;
    end if;
end
$$;
