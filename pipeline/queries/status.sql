-- A run's status document and when it was written.
select status, status_at from pipe.jobs where id = $1
