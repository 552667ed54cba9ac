package pgcatalog

import (
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pg"
)

// Quote answers a column (or other single) name quoted for SQL, so that a
// name is never SQL.
func Quote(name string) string { return pgx.Identifier{name}.Sanitize() }

// QuoteAll answers the names quoted.
func QuoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Quote(n)
	}
	return out
}

// QuoteList answers the names quoted and joined by ", ".
func QuoteList(names []string) string { return strings.Join(QuoteAll(names), ", ") }

// LengthFaults answers why each name of the kind what ("column", "key
// column") longer than [pg.MaxNameBytes] is refused: PostgreSQL would cut
// it to name another column. A factory names them among its own faults.
func LengthFaults(what string, names ...string) []string {
	var out []string
	for _, n := range names {
		if len(n) <= pg.MaxNameBytes {
			continue
		}
		if e, ok := errcode.As(pg.CheckName(what, n)); ok {
			out = append(out, e.Message)
		}
	}
	return out
}

// Fault answers the message of a name's error (X_NAME_INVALID from
// package pg) without its code, for a factory to name among its own
// faults under its own code.
func Fault(err error) string {
	if e, ok := errcode.As(err); ok {
		return e.Message
	}
	return err.Error()
}
