-- One delivery attempt, never its body.
insert into pipe.webhook_deliveries (job, run_id, endpoint_id, event_id, attempt, status, outcome, bytes, duration_ms, code)
values (@job, @run_id, @endpoint_id, @event_id, @attempt, @status, @outcome, @bytes, @duration_ms, nullif(@code, ''))
