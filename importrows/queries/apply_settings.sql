-- A run's settings, for the rest of the transaction.
select set_config('DateStyle', $1, true), set_config('TimeZone', $2, true), set_config('IntervalStyle', $3, true)
