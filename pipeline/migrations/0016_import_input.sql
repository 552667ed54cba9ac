-- pipe.import_text is a value's text by its type's output function, in
-- a form every session reads back as the same value whatever its settings:
-- dates as ISO writes them (year first; a zone as its offset, never an
-- abbreviation such as IST, which names another zone by default), and
-- intervals as ISO 8601, which IntervalStyle does not change.
create or replace function pipe.import_text(v anyelement) returns text
    language plpgsql stable
    set datestyle = 'ISO' set intervalstyle = 'iso_8601'
as $$
begin
    return concat(v);
end
$$;

-- pipe.import_input reads texts as COPY would: each of vals by the input
-- of the type named at the same index of types (a type as format_type
-- spells it, with its modifiers: "numeric(10,2)", "mood", "int4range[]"),
-- under the session's DateStyle, TimeZone and IntervalStyle. It answers,
-- at each index, the value's canonical text (see import_text), or NULL
-- where the type refuses the text. An import asks it, once per page, for
-- the values its own coercion could not read, before it refuses their rows.
--
-- PostgreSQL 15 has no pg_input_is_valid: the values of one type are read
-- in one statement, and only when that fails is each read alone, in a
-- subtransaction that catches a data exception or a domain's constraint.
-- A name that is not a type is an error, never run as SQL: it is read as a
-- regtype before it is put in a statement.
create or replace function pipe.import_input(types text[], vals text[]) returns text[]
    language plpgsql volatile
as $$
declare
    answer text[] := array_fill(null::text, array[coalesce(cardinality(vals), 0)]);
    typ text;
    idx int[];
    got text[];
    one text;
    k int;
begin
    for typ in select distinct t from unnest(types) t loop
        perform typ::regtype;
        idx := array(select n::int from unnest(types) with ordinality u(t, n) where t = typ order by n);
        begin
            execute format('select array(select pipe.import_text(v::%s) from unnest($1) with ordinality u(v, n) order by n)', typ)
                into got using array(select vals[j] from unnest(idx) with ordinality u(j, n) order by n);
        exception when data_exception or integrity_constraint_violation then
            got := null;
        end;
        for k in 1 .. cardinality(idx) loop
            if got is not null then
                answer[idx[k]] := got[k];
                continue;
            end if;
            begin
                execute format('select pipe.import_text($1::%s)', typ) into one using vals[idx[k]];
                answer[idx[k]] := one;
            exception when data_exception or integrity_constraint_violation then
                null;
            end;
        end loop;
    end loop;
    return answer;
end
$$;
