-- The DateStyle, TimeZone and IntervalStyle a fresh session on this
-- database starts with: a setting of this role in this database, else of
-- this role, else of this database (ALTER ROLE / DATABASE ... SET), else
-- the server's. This session's own may have been changed since it began.
with wanted(name, at) as (values ('datestyle', 1), ('timezone', 2), ('intervalstyle', 3)),
set_here as (
    select lower(split_part(c, '=', 1)) as name, substr(c, strpos(c, '=') + 1) as value,
           r.setdatabase <> 0 and r.setrole <> 0 as both, r.setrole <> 0 as by_role
    from pg_db_role_setting r, unnest(r.setconfig) c
    where r.setdatabase in (0, (select oid from pg_database where datname = current_database()))
      and r.setrole in (0, (select oid from pg_roles where rolname = session_user))
)
select array_agg(coalesce(
           (select h.value from set_here h where h.name = w.name order by h.both desc, h.by_role desc limit 1),
           (select s.reset_val from pg_settings s where lower(s.name) = w.name)) order by w.at)
from wanted w
