-- 0007 was edited after its release (commit ce197e1): pipe.bucket_start
-- starts a day at the first of two local midnights a fall-back repeats
-- (America/Havana), through three new immutable helpers, zone_offset,
-- utc_instant and local_start, so that it is still inlined into the query
-- that calls it. A database migrated with the earlier 0007 has neither the
-- helpers nor the corrected bucket_start; this creates them as 0007 does
-- now. On a database migrated with the edited 0007 it replaces each
-- function with itself. An application's own index on an expression
-- calling pipe.bucket_start, built before this migration, holds the old
-- answers for Havana-like zones: reindex it.

-- The zone's UTC offset at the instant at.
create or replace function pipe.zone_offset(at timestamptz, zone text) returns interval
    language sql immutable parallel safe
    as $$ select (at at time zone zone) - (at at time zone 'UTC') $$;

-- The instant whose UTC wall time is utc (immutable, unlike a cast).
create or replace function pipe.utc_instant(utc timestamp) returns timestamptz
    language sql immutable parallel safe
    as $$ select utc at time zone 'UTC' $$;

-- The first instant whose wall-clock time in zone is local: read with the
-- offset of a day earlier first, which finds the first of two instants a
-- fall-back repeats; otherwise PostgreSQL's own reading (in a gap, the
-- offset before it, which lands on the transition).
create or replace function pipe.local_start(local timestamp, zone text) returns timestamptz
    language sql immutable parallel safe
    as $$
    select case
        when pipe.utc_instant(local - pipe.zone_offset(pipe.utc_instant((local at time zone zone) at time zone 'UTC' - interval '1 day'), zone))
                 < (local at time zone zone)
         and pipe.utc_instant(local - pipe.zone_offset(pipe.utc_instant((local at time zone zone) at time zone 'UTC' - interval '1 day'), zone))
                 at time zone zone = local
            then pipe.utc_instant(local - pipe.zone_offset(pipe.utc_instant((local at time zone zone) at time zone 'UTC' - interval '1 day'), zone))
        else local at time zone zone
    end
    $$;

create or replace function pipe.bucket_start(unit text, ts timestamptz, zone text) returns timestamptz
    language sql immutable parallel safe
    as $$
    select case
        when unit in ('second', 'minute', 'hour')
            then pipe.utc_instant((ts at time zone 'UTC') - ((ts at time zone zone) - date_trunc(unit, ts at time zone zone)))
        else pipe.local_start(date_trunc(unit, ts at time zone zone), zone)
    end
    $$;
