-- Each task's last fire: the last occurrence that queued its jobs, and the
-- database clock when it did. Tasks that never fired have no row.
select task, last_fired, fired_at
from pipe.task_state
where last_fired is not null
order by task
limit $1
