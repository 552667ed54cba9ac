-- A type's name as SQL writes it, for a cast.
select format_type($1::oid, null)
