package exportrows

import (
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// pageSQL are the two statements a page runs: the first page's, and every
// later page's, which reads after the last key with a row comparison
// (a, b) > ($1, $2) — keyset, never OFFSET. Identifiers are quoted; the
// values (the source's Args, the key, the page size) are parameters.
type pageSQL struct {
	first, next string
	// snapNext and snapLast read a snapshot export's range of blocks.
	snapNext, snapLast string
	formats            pgx.QueryResultFormats
}

func newPageSQL(src Source, p plan, cols []column, rg *Range) pageSQL {
	exprs := make([]string, len(cols))
	formats := make(pgx.QueryResultFormats, len(cols))
	for i, c := range cols {
		exprs[i] = c.expr()
		if c.binary {
			formats[i] = pgx.BinaryFormatCode
		}
	}
	sel := "select " + strings.Join(exprs, ", ") + " from " + src.from()
	if p.Snapshot {
		q := pageSQL{formats: formats}
		q.snapNext, q.snapLast = snapshotSQL(src, sel)
		return q
	}
	order := " order by " + quoteAll(p.Key) + " limit "
	n := len(src.Args)
	params := make([]string, len(p.Key))
	for i, k := range p.Key {
		params[i] = param(n+1+i) + "::text::" + castOf(cols, k)
	}
	after := "(" + quoteAll(p.Key) + ") > (" + strings.Join(params, ", ") + ")"
	if rg != nil && rg.Through != nil {
		// a child's range ends at its last key, passed after the limit
		k := len(p.Key)
		return pageSQL{
			first:   sel + whereAnd(src, through(p.Key, cols, n+2)) + order + param(n+1),
			next:    sel + whereAnd(src, after+" and "+through(p.Key, cols, n+k+2)) + order + param(n+1+k),
			formats: formats,
		}
	}
	return pageSQL{
		first:   sel + whereOf(src) + order + param(n+1),
		next:    sel + whereAnd(src, after) + order + param(n+1+len(p.Key)),
		formats: formats,
	}
}

// through answers the condition of a range's last key, its values the
// parameters from $from on.
func through(key []string, cols []column, from int) string {
	params := make([]string, len(key))
	for i, k := range key {
		params[i] = param(from+i) + "::text::" + castOf(cols, k)
	}
	return "(" + quoteAll(key) + ") <= (" + strings.Join(params, ", ") + ")"
}

// throughArgs answers the values of a range's last key, if it has one.
func throughArgs(rg *Range) []any {
	out := make([]any, len(rg.Through))
	for i, v := range rg.Through {
		out[i] = v
	}
	return out
}

// args answers the statement and its arguments for the page after the key
// after (nil: the first page).
func (q pageSQL) args(src Source, after []string, limit int) (string, []any) {
	args := make([]any, 0, 3+len(src.Args)+len(after))
	// An unnamed statement, described then run: the server types Args, and
	// plans each page for its own key (a cached generic plan could sort
	// the whole table for every page).
	args = append(append(args, pgx.QueryExecModeDescribeExec, q.formats), src.Args...)
	if after == nil {
		return q.first, append(args, limit)
	}
	for _, v := range after {
		args = append(args, v)
	}
	return q.next, append(args, limit)
}

// blockArgs answers a snapshot page's statement and its arguments: blocks
// from up to to, or from on (to < 0).
func (q pageSQL) blockArgs(src Source, from, to int64) (string, []any) {
	args := append([]any{pgx.QueryExecModeDescribeExec, q.formats}, src.Args...)
	if to < 0 {
		return q.snapLast, append(args, tid(from))
	}
	return q.snapNext, append(args, tid(from), tid(to))
}

// whereAnd answers a WHERE clause of the source's filter, if it has one,
// and cond.
func whereAnd(s Source, cond string) string {
	if s.Where == "" {
		return " where " + cond
	}
	return " where (" + s.Where + "\n) and " + cond
}

// whereOf answers the source's WHERE clause, or "".
func whereOf(s Source) string {
	if s.Where == "" {
		return ""
	}
	return " where (" + s.Where + "\n)" // a trailing -- comment ends with its line
}

func param(i int) string { return "$" + strconv.Itoa(i) }

// castOf answers the type the key column name's text is cast to.
func castOf(cols []column, name string) string {
	for _, c := range cols {
		if c.Name == name {
			return c.Base
		}
	}
	return "text"
}
