-- One keyset page of jobs going forward: newest first from the cursor @after
-- (ids are time-ordered UUIDv7). list_backward is the same page read the
-- other way; change the two together.
select id, run_id, name, queue, tenant, idem_key, state, attempt, max_attempts, run_at, created_at, finished_at
from pipe.jobs
where (@queue = '' or queue = @queue)
  and (@name = '' or name = @name)
  and (@state = '' or state = @state)
  and (@tenant = '' or tenant = @tenant)
  and (@id_prefix = '' or id::text like @id_prefix || '%')
  and (@created_from::timestamptz is null or created_at >= @created_from)
  and (@created_to::timestamptz is null or created_at < @created_to)
  and (@after::uuid is null or id < @after)
order by id desc
limit @limit
