-- The canonical text of each value by its type's input, NULL where refused
-- (see migration 0016).
select pipe.import_input($1::text[], $2::text[])
