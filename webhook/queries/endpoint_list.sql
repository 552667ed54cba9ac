-- Every endpoint, by id.
select id, url, secrets, enabled, consecutive_failures, created_at, updated_at
from pipe.webhook_endpoints
order by id
