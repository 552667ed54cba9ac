-- The paused tasks, by name.
select task from pipe.task_state where paused order by task limit $1
