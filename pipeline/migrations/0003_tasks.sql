-- Scheduled tasks: one watermark row per task and the fleet's leader lease.

-- A task's watermark: every occurrence at or before last_occurrence has been
-- armed past, fired or skipped. The fire statement moves it, and inserts the
-- occurrence's jobs, only where it still holds the value the scheduler read.
create table pipe.task_state (
    task            text        primary key,
    last_occurrence timestamptz not null,
    paused          boolean     not null default false,
    -- The last occurrence that queued jobs, and the database clock then.
    -- Arming a task or skipping missed occurrences leaves them alone.
    last_fired      timestamptz,
    fired_at        timestamptz,
    armed_at        timestamptz not null default pipe.now()
);

-- The one scheduler of the fleet allowed to fire: a lease row, renewed by its
-- holder and free to take once expires_at has passed on the database clock.
create table pipe.scheduler_leader (
    one         boolean     primary key default true check (one),
    holder      text        not null,
    acquired_at timestamptz not null,
    expires_at  timestamptz not null
);
