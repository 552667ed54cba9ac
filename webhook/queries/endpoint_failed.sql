-- Count one failed run against an endpoint; at $2 in a row (when $2 > 0)
-- the endpoint is disabled.
update pipe.webhook_endpoints
set consecutive_failures = consecutive_failures + 1,
    enabled = enabled and not ($2 > 0 and consecutive_failures + 1 >= $2),
    updated_at = pipe.now()
where id = $1
returning not enabled
