package pg

import "github.com/jackc/pgx/v5"

// Relation names a table, view, materialized view or sequence: a schema and
// a name, each exactly as the catalog stores it (case kept, no quotes). An
// empty Schema means the relation the search path finds.
//
// The zero Relation names nothing. A Relation written as a literal is taken
// as it is — pg.Relation{Name: "Orders"} is the table "Orders", capital
// included — while [ParseRelation] reads the SQL spelling, where Orders
// unquoted is orders.
type Relation struct {
	// Schema is the relation's schema; empty for the search path.
	Schema string
	// Name is the relation's name. Required.
	Name string
}

// IsZero reports whether r names nothing.
func (r Relation) IsZero() bool { return r == Relation{} }

// Quoted answers r as an SQL statement names it, every part quoted:
// "sales"."Order Items". It is the only form of a relation pipe puts in SQL.
func (r Relation) Quoted() string {
	if r.Schema == "" {
		return pgx.Identifier{r.Name}.Sanitize()
	}
	return pgx.Identifier{r.Schema, r.Name}.Sanitize()
}

// String answers r as a person writes it in SQL, and as [ParseRelation]
// reads it back: each part bare when SQL would read it bare as itself (a
// lower-case name that is not a keyword), quoted otherwise, as
// PostgreSQL's quote_ident does: sales."Order Items".
func (r Relation) String() string {
	if r.Schema == "" {
		return QuoteName(r.Name)
	}
	return QuoteName(r.Schema) + "." + QuoteName(r.Name)
}

// Check refuses a relation PostgreSQL would not name as given, with
// X_NAME_INVALID: an empty name, a part holding a NUL, a part over
// [MaxNameBytes] (PostgreSQL would cut it, with only a NOTICE, to name
// another relation). [ParseRelation] answers only relations that pass it.
func (r Relation) Check() error {
	if r.Schema != "" {
		if err := CheckName("schema", r.Schema); err != nil {
			return err
		}
	}
	return CheckName("relation", r.Name)
}
