-- The sequence the id column ($2, its name taken literally) of the table
-- ($1, quoted, possibly schema-qualified) owns, serial or identity, as SQL
-- names it; NULL when it owns none.
select pg_get_serial_sequence($1, $2)
