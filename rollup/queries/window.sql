-- A run's window: its now — the database clock (the test kit can freeze
-- it), or the run's own as-of instant — and the first instant of the bucket
-- holding now - lookback, or the backfill's From when it is earlier.
-- $1 unit, $2 zone, $3 lookback in microseconds, $4 From (null for a normal
-- run), $5 as-of (null: the database clock).
select n.now,
       pipe.bucket_start($1, least(n.now - $3::int8 * interval '1 microsecond', $4::timestamptz), $2)
  from (select coalesce($5::timestamptz, pipe.now()) as now) n
