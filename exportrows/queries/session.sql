-- The settings a page reads under, for its transaction only: values sent
-- as text (numeric, arrays in csv, json, types pipe does not decode) come
-- out the same whatever the server's defaults.
select set_config('TimeZone', 'UTC', true),
       set_config('DateStyle', 'ISO, YMD', true),
       set_config('IntervalStyle', 'postgres', true),
       set_config('bytea_output', 'hex', true),
       set_config('extra_float_digits', '1', true)
