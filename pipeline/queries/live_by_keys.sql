-- The open runs holding (tenant, key) pairs of one job.
select j.id, j.run_id, j.tenant, j.idem_key
from pipe.runs_open j
join unnest($2::text[], $3::text[]) as k(tenant, idem_key)
  on j.tenant = k.tenant and j.idem_key = k.idem_key
where j.name = $1
