-- The end of an attempt's first FencedTx on a run whose earlier attempts
-- failed or lapsed: lock the run's row if this attempt still holds it, and
-- give back the attempts spent, since the run is making progress ($3: a
-- status document to store, or null to keep the stored one).
update pipe.runs_open set
    attempt   = 1,
    status    = coalesce($3, status),
    status_at = case when $3::jsonb is null then status_at else pipe.now() end
where id = $1 and claims = $2 and state = 'running'
returning id
