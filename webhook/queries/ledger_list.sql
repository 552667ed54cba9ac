-- The newest delivery attempts, of one endpoint and one event when named.
select job, run_id::text, endpoint_id, event_id, attempt, status, outcome, bytes, duration_ms, coalesce(code, ''), at
from pipe.webhook_deliveries
where ($1 = '' or endpoint_id = $1) and ($2 = '' or event_id = $2)
order by at desc, id desc
limit $3
