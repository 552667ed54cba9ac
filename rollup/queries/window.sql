-- A run's window: the database clock (the test kit can freeze it) and the
-- first instant of the bucket holding now - lookback, or the backfill's
-- From when it is earlier. $1 unit, $2 zone, $3 lookback in microseconds,
-- $4 From (null for a normal run).
select n.now,
       pipe.bucket_start($1, least(n.now - $3::int8 * interval '1 microsecond', $4::timestamptz), $2)
  from (select pipe.now() as now) n
