-- A worker's presence, renewed with its heartbeat.
insert into pipe.workers (id, host, queues, max_in_flight, in_flight, expires_at)
values ($1, $2, $3, $4, $5, pipe.now() + $6::interval)
on conflict (id) do update set
    host           = excluded.host,
    queues         = excluded.queues,
    max_in_flight  = excluded.max_in_flight,
    in_flight      = excluded.in_flight,
    last_heartbeat = pipe.now(),
    expires_at     = excluded.expires_at
