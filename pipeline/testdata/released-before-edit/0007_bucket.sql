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
-- Every piece is immutable, so the function is inlined into the query that
-- calls it.
create function pipe.bucket_start(unit text, ts timestamptz, zone text) returns timestamptz
    language sql immutable parallel safe
    as $$
    select case
        when unit in ('second', 'minute', 'hour')
            then ts - ((ts at time zone zone) - date_trunc(unit, ts at time zone zone))
        else date_trunc(unit, ts at time zone zone) at time zone zone
    end
    $$;
