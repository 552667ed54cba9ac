-- One keyset page of jobs, newest first (ids are time-ordered UUIDv7).
-- Two forms are built from this text: forward (CMP "<", DIR desc) and
-- backward (CMP ">", DIR asc; the caller reverses the page).
select id, run_id, name, queue, tenant, idem_key, state, attempt, max_attempts, run_at, created_at, finished_at
from pipe.jobs
where ($1 = '' or queue = $1)
  and ($2 = '' or name = $2)
  and ($3 = '' or state = $3)
  and ($4 = '' or tenant = $4)
  and ($5 = '' or id::text like $5 || '%')
  and ($6::timestamptz is null or created_at >= $6)
  and ($7::timestamptz is null or created_at < $7)
  and ($8::uuid is null or id CMP $8)
order by id DIR
limit $9
