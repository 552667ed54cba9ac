-- Whether the server's time zone database knows the zone $1.
select exists (select 1 from pg_timezone_names where name = $1)
