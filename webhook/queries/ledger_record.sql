-- Delivery attempts, never their bodies: one row per element of the
-- column arrays, written in one statement. The database clock is read once
-- for the statement (a column default of pipe.now() reads pipe.clock once
-- a row: half the statement's time).
with clock as materialized (
    select pipe.now() as now
)
insert into pipe.webhook_deliveries (job, run_id, endpoint_id, event_id, attempt, status, outcome, bytes, duration_ms, code, at)
select job, run_id, endpoint_id, event_id, attempt, status, outcome, bytes, duration_ms, nullif(code, ''), c.now
from unnest(@jobs::text[], @run_ids::uuid[], @endpoint_ids::text[], @event_ids::text[], @attempts::int[], @statuses::int[],
            @outcomes::text[], @bytes::bigint[], @duration_ms::int[], @codes::text[])
    as t(job, run_id, endpoint_id, event_id, attempt, status, outcome, bytes, duration_ms, code)
    cross join clock c
