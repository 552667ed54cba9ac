-- Put a new secret first and keep the newest old one beside it, so
-- receivers verifying with either accept deliveries during the rotation.
update pipe.webhook_endpoints
set secrets = array[$2::text] || secrets[1:1], updated_at = pipe.now()
where id = $1
returning id
