-- The first event matching a wait, published since it began.
select payload
from pipe.published_events
where event = $1 and published_at >= $2 and payload @> $3
order by id
limit 1
