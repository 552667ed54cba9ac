-- Renew the leases of the runs a worker holds, each fenced on its claim.
update pipe.jobs j set lease_until = pipe.now() + $3::interval
from unnest($1::uuid[], $2::int[]) as u(id, claims)
where j.id = u.id and j.claims = u.claims and j.state = 'running'
returning j.id
