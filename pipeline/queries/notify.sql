-- Wake idle workers serving a queue. The payload is the queue name only.
select pg_notify('pipe_jobs', $1)
