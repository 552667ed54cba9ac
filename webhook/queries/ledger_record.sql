-- Delivery attempts, never their bodies: one row per element of the
-- column arrays, written in one statement.
insert into pipe.webhook_deliveries (job, run_id, endpoint_id, event_id, attempt, status, outcome, bytes, duration_ms, code)
select job, run_id, endpoint_id, event_id, attempt, status, outcome, bytes, duration_ms, nullif(code, '')
from unnest(@jobs::text[], @run_ids::uuid[], @endpoint_ids::text[], @event_ids::text[], @attempts::int[], @statuses::int[],
            @outcomes::text[], @bytes::bigint[], @duration_ms::int[], @codes::text[])
    as t(job, run_id, endpoint_id, event_id, attempt, status, outcome, bytes, duration_ms, code)
