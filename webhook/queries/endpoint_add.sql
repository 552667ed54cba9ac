-- A new endpoint, enabled, with one secret.
insert into pipe.webhook_endpoints (id, url, secrets)
values ($1, $2, array[$3::text])
on conflict (id) do nothing
returning id
