// Package sqlname parses and quotes the table and column names a
// declaration gives: "table" on the search path or "schema.table", quoted
// with pgx.Identifier so that a name is never SQL.
package sqlname

import (
	"strings"

	"github.com/jackc/pgx/v5"
)

// Rel is a relation's name, its schema empty for the search path.
type Rel struct{ Schema, Name string }

// Parse splits "table" or "schema.table"; more dots, or a blank part, do
// not parse.
func Parse(s string) (Rel, bool) {
	parts := strings.Split(s, ".")
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			return Rel{}, false
		}
	}
	switch len(parts) {
	case 1:
		return Rel{Name: parts[0]}, true
	case 2:
		return Rel{Schema: parts[0], Name: parts[1]}, true
	}
	return Rel{}, false
}

// Ident answers the quoted, possibly qualified name.
func (r Rel) Ident() string {
	if r.Schema == "" {
		return pgx.Identifier{r.Name}.Sanitize()
	}
	return pgx.Identifier{r.Schema, r.Name}.Sanitize()
}

// String answers the name as declared.
func (r Rel) String() string {
	if r.Schema == "" {
		return r.Name
	}
	return r.Schema + "." + r.Name
}

// Quote answers a quoted column name.
func Quote(col string) string { return pgx.Identifier{col}.Sanitize() }

// QuoteAll answers the quoted column names.
func QuoteAll(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = Quote(c)
	}
	return out
}
