-- Arm the tasks $1 that have no watermark yet at $2 (nothing before $2
-- fires), and answer every one's watermark and pause, with armed set on the
-- rows this statement created.
with armed as (
    insert into pipe.task_state (task, last_occurrence)
    select unnest($1::text[]), $2::timestamptz
    on conflict (task) do nothing
    returning task, last_occurrence
)
select s.task, s.last_occurrence, s.paused, false as armed
from pipe.task_state s
where s.task = any($1::text[])
union all
select a.task, a.last_occurrence, false, true
from armed a
