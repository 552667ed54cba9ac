-- A delivered run resets an endpoint's failure count.
update pipe.webhook_endpoints
set consecutive_failures = 0, updated_at = pipe.now()
where id = $1 and consecutive_failures <> 0
