-- The open runs indexed for the operator's filters the claim's indexes do
-- not answer: an idempotency key, a tenant and a concurrency key. Without
-- them a listing filtered by one of these (`pipe jobs list --key`, the
-- console, MCP's jobs.list) read every open run in id order through a
-- filter: 50-150 ms at 100,000 open runs.
--
-- The key costs no new index: the unique index an enqueue dedupes on leads
-- with it now, (idem_key, name, tenant) where it led with the name. The
-- enqueue's lookups name all three columns, which any order answers, and
-- ON CONFLICT (name, tenant, idem_key) infers the index whatever its order.
-- The tenant and concurrency-key indexes hold only runs that have one, so
-- a job without either pays nothing for them. Built in the migration's
-- transaction, which blocks writes to the open runs (not the finished
-- ones) while it builds: under a second at 100,000 open runs.
create unique index runs_open_key on pipe.runs_open (idem_key, name, tenant);
drop index pipe.runs_open_live_key;
alter index pipe.runs_open_key rename to runs_open_live_key;
create index runs_open_tenant on pipe.runs_open (tenant, id) where tenant <> '';
create index runs_open_concurrency_key on pipe.runs_open (concurrency_key, id) where concurrency_key is not null;
