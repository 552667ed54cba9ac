-- Webhooks (package webhook) and sensitive inputs.
--
-- pipe.jobs.sensitive marks a run whose job declared its input sensitive
-- (JobOptions.Sensitive; every webhook receiver): the input is stored as
-- any other, and `pipe jobs show` prints [redacted] in its place.
alter table pipe.jobs add column sensitive boolean not null default false;

-- The stock endpoint store, for applications without their own: an
-- endpoint's URL, the secrets that sign its deliveries (newest first: two
-- during a rotation), whether it is enabled, and how many runs in a row
-- failed to deliver to it.
create table pipe.webhook_endpoints (
    id                   text        primary key,
    url                  text        not null,
    secrets              text[]      not null,
    enabled              boolean     not null default true,
    consecutive_failures integer     not null default 0,
    created_at           timestamptz not null default pipe.now(),
    updated_at           timestamptz not null default pipe.now()
);

-- The stock delivery ledger: one row per attempt, never the body. Purged
-- by maintenance with the runs it records (the done retention).
create table pipe.webhook_deliveries (
    id          bigint      generated always as identity primary key,
    job         text        not null,
    run_id      uuid        not null,
    endpoint_id text        not null,
    event_id    text        not null,
    attempt     integer     not null,
    status      integer     not null,
    outcome     text        not null,
    bytes       bigint      not null,
    duration_ms integer     not null,
    code        text,
    at          timestamptz not null default pipe.now()
);
create index webhook_deliveries_endpoint on pipe.webhook_deliveries (endpoint_id, at desc);
create index webhook_deliveries_event on pipe.webhook_deliveries (event_id, at desc);
create index webhook_deliveries_at on pipe.webhook_deliveries (at);
