// Package pg names PostgreSQL relations the one way every pipe factory
// takes them: a [Relation] is a schema and a name, parsed and quoted here
// and nowhere else.
//
// # Writing a name
//
// A Relation literal holds the names exactly as the catalog stores them:
//
//	pg.Relation{Schema: "Sales", Name: "Order Items"} // the table "Sales"."Order Items"
//	pg.Relation{Name: "orders"}                         // orders, wherever the search path finds it
//
// [ParseRelation] reads what a person types into psql — a bare name folded
// to lower case as PostgreSQL folds it, a "Quoted Name" kept as written, an
// optional schema before a dot — so a flag, a JSON file or a config value
// names a table the way SQL does:
//
//	r, err := pg.ParseRelation(`Sales."Order Items"`) // {sales Order Items}
//
// [Relation.Quoted] is the form for SQL (every part quoted), and
// [Relation.String] the form for people, which ParseRelation reads back to
// the same relation. A name PostgreSQL would not keep as written — empty,
// holding a NUL, or over the 63 bytes it keeps of a name, which it would
// cut, with only a NOTICE, to name another table — is X_NAME_INVALID.
//
// # JSON
//
// A Relation is a JSON string in the SQL spelling ("sales.orders",
// "sales.\"Order Items\""); an object {"schema": ..., "name": ...} is also
// read, its names taken exactly. It is text too, so it can be a flag
// (flag.TextVar).
//
// # Columns
//
// Column names in pipe's options are exact, as a Relation literal's are.
// [ParseNames] reads a comma-separated list the way SQL writes one, for
// flags such as the CLI's --key; [QuoteName] writes one name as SQL does.
package pg
