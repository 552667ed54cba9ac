package exportrows

import (
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/sqlname"
)

// checkSource refuses a source that names no table and no query, or both,
// and a query without its name or key.
func checkSource(s Source) error {
	var faults []string
	add := func(cond bool, fault string) {
		if cond {
			faults = append(faults, fault)
		}
	}
	table, query := strings.TrimSpace(s.Table) != "", strings.TrimSpace(s.Query) != ""
	add(table == query, "name exactly one of Table and Query")
	add(query && strings.TrimSpace(s.Name) == "", "a Query needs a Name for the manifest")
	add(query && len(s.Key) == 0, "a Query needs its ordering Key")
	add(query && s.Where != "", "Where filters a Table; a Query filters itself")
	add(!table && s.Schema != "", "Schema names a Table's schema")
	add(s.Order != "" && s.Order != ByKey && s.Order != Snapshot, "Order is key or snapshot")
	add(s.Order == Snapshot && query, "a Query is read in its Key's order; Order snapshot reads a Table")
	add(s.Order == Snapshot && len(s.Key) > 0, "Order snapshot reads in storage order and takes no Key")
	faults = append(faults, nameFaults("Columns", s.Columns)...)
	faults = append(faults, nameFaults("Key", s.Key)...)
	faults = append(faults, lengthFaults(s)...)
	if len(faults) == 0 {
		return nil
	}
	return errcode.New(errcode.ExportSourceInvalid, "export: %s", strings.Join(faults, "; ")).
		WithFix("correct the export's source: " + strings.Join(faults, "; "))
}

// lengthFaults refuses a name PostgreSQL would cut to 63 bytes, so that it
// named another table or column than the one asked for.
func lengthFaults(s Source) []string {
	f := sqlname.LengthFaults("schema", s.Schema)
	f = append(f, sqlname.LengthFaults("table", s.Table)...)
	f = append(f, sqlname.LengthFaults("column", s.Columns...)...)
	return append(f, sqlname.LengthFaults("key column", s.Key...)...)
}

// ident answers the source table's quoted name.
func (s Source) ident() string {
	if s.Schema == "" {
		return pgx.Identifier{s.Table}.Sanitize()
	}
	return pgx.Identifier{s.Schema, s.Table}.Sanitize()
}

// from answers the FROM item pages read: the quoted table, or the query as
// a subquery (its own line, so a trailing -- comment ends there).
func (s Source) from() string {
	if s.Query != "" {
		return "(" + s.Query + "\n) as q"
	}
	return s.ident()
}

// snapshot reports whether the source is read in snapshot order.
func (s Source) snapshot() bool { return s.Order == Snapshot }

// label answers the source's name in the manifest and in messages.
func (s Source) label() string {
	if s.Query != "" {
		return s.Name
	}
	if s.Schema == "" {
		return s.Table
	}
	return s.Schema + "." + s.Table
}

func quote(name string) string { return pgx.Identifier{name}.Sanitize() }

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	return strings.Join(q, ", ")
}
