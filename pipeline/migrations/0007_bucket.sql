-- pipe.bucket_start(unit, ts, zone): the first instant of the time bucket
-- that holds ts, with buckets read in the IANA zone, DST included. Package
-- rollup groups by it, and an application's own queries can too.
--
-- Units of a day or more (day, week — ISO, from Monday — month, quarter,
-- year) start at local midnight, taken as an instant: a day is 23 or 25
-- hours long on a DST transition. Where a transition skips local midnight,
-- the day starts at the transition (PostgreSQL reads a skipped local time
-- with the offset before it).
--
-- Units under a day (second, minute, hour) start at the instant whose local
-- wall-clock time is the unit's start, at ts's own offset: each hour is 60
-- real minutes, also on a fall-back day that shows 1:00 twice (the two
-- hours keep two keys), and zones whose offset is not whole hours
-- (Asia/Kolkata, +05:30) start their hours at :30 UTC. The round trip
-- date_trunc(unit, ts at time zone z) at time zone z would put the first of
-- two repeated hours after its own rows.
--
-- Where a fall-back repeats local midnight (America/Havana goes from 1:00
-- back to 0:00), the day starts at the first midnight; PostgreSQL alone
-- would read the repeated local time with the offset after the transition,
-- an hour after the day's first rows.
--
-- Every piece is immutable (instants move through UTC wall time, since
-- timestamptz - interval is only stable) and each function is one
-- expression, so the functions are inlined into the query that calls them.

-- The zone's UTC offset at the instant at.
create function pipe.zone_offset(at timestamptz, zone text) returns interval
    language sql immutable parallel safe
    as $$ select (at at time zone zone) - (at at time zone 'UTC') $$;

-- The instant whose UTC wall time is utc (immutable, unlike a cast).
create function pipe.utc_instant(utc timestamp) returns timestamptz
    language sql immutable parallel safe
    as $$ select utc at time zone 'UTC' $$;

-- The first instant whose wall-clock time in zone is local: read with the
-- offset of a day earlier first, which finds the first of two instants a
-- fall-back repeats; otherwise PostgreSQL's own reading (in a gap, the
-- offset before it, which lands on the transition).
create function pipe.local_start(local timestamp, zone text) returns timestamptz
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

create function pipe.bucket_start(unit text, ts timestamptz, zone text) returns timestamptz
    language sql immutable parallel safe
    as $$
    select case
        when unit in ('second', 'minute', 'hour')
            then pipe.utc_instant((ts at time zone 'UTC') - ((ts at time zone zone) - date_trunc(unit, ts at time zone zone)))
        else pipe.local_start(date_trunc(unit, ts at time zone zone), zone)
    end
    $$;
