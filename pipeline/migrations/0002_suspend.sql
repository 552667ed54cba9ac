-- Durable time and events: suspended runs are claimable again at their
-- run_at, published events wake the runs waiting on them.

drop index pipe.jobs_claimable;
create index jobs_claimable on pipe.jobs (queue, run_at)
    where state in ('ready', 'delayed', 'suspended');

create table pipe.published_events (
    id           bigint      generated always as identity primary key,
    event        text        not null,
    payload      jsonb       not null,
    published_at timestamptz not null default pipe.now()
);
create index published_events_event on pipe.published_events (event, published_at);

-- One row per run waiting on an event: what PublishEvent matches against.
create table pipe.waits (
    job_id uuid        not null,
    step   text        not null,
    event  text        not null,
    match  jsonb       not null,
    since  timestamptz not null,
    primary key (job_id, step)
);
create index waits_event on pipe.waits (event);
