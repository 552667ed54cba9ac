package exportrows

import (
	"strings"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
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
	table, query := !s.Table.IsZero(), strings.TrimSpace(s.Query) != ""
	add(table == query, "name exactly one of Table and Query")
	add(query && strings.TrimSpace(s.Name) == "", "a Query needs a Name for the manifest")
	add(query && len(s.Key) == 0, "a Query needs its ordering Key")
	add(query && s.Where != "", "Where filters a Table; a Query filters itself")
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

// lengthFaults refuses a name PostgreSQL would not keep as given — cut to
// 63 bytes, so that it named another table or column than the one asked
// for.
func lengthFaults(s Source) []string {
	var f []string
	if !s.Table.IsZero() {
		if err := s.Table.Check(); err != nil {
			f = append(f, pgcatalog.Fault(err))
		}
	}
	f = append(f, pgcatalog.LengthFaults("column", s.Columns...)...)
	return append(f, pgcatalog.LengthFaults("key column", s.Key...)...)
}

// from answers the FROM item pages read: the quoted table, or the query as
// a subquery (its own line, so a trailing -- comment ends there).
func (s Source) from() string {
	if s.Query != "" {
		return "(" + s.Query + "\n) as q"
	}
	return s.Table.Quoted()
}

// snapshot reports whether the source is read in snapshot order.
func (s Source) snapshot() bool { return s.Order == Snapshot }

// label answers the source's name in the manifest and in messages: a
// query's Name, or the table as SQL writes it.
func (s Source) label() string {
	if s.Query != "" {
		return s.Name
	}
	return s.Table.String()
}

func quote(name string) string { return pgcatalog.Quote(name) }

func quoteAll(names []string) string { return pgcatalog.QuoteList(names) }
