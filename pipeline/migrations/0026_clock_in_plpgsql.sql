-- pipe.now() in PL/pgSQL. As a SQL function its body's subquery kept the
-- planner from inlining it, and a SQL function that is not inlined is
-- planned again at every execution of the statement that calls it: about
-- 40 µs of server CPU a statement, and 0.14–0.27 ms on an enqueue of one
-- run timed from Go (a run's pickup is an enqueue and a claim, each calling
-- it once). PL/pgSQL keeps its plan for the session. The answer is the same:
-- the test kit's frozen or shifted clock when pipe.clock holds a row, else
-- the transaction's now().
create or replace function pipe.now() returns timestamptz
    language plpgsql stable
as $$
declare
    t timestamptz;
begin
    select coalesce(c.frozen_at, pg_catalog.now() + c.shift) into t from pipe.clock c;
    return coalesce(t, pg_catalog.now());
end
$$;
