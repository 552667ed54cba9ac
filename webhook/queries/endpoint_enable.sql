-- Enable or disable an endpoint; enabling resets its failure count.
update pipe.webhook_endpoints
set enabled = $2,
    consecutive_failures = case when $2 then 0 else consecutive_failures end,
    updated_at = pipe.now()
where id = $1
returning id
