package rollup

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pg"
)

// rowsAlias names the hidden column that counts each point's source rows.
const rowsAlias = "pipe.rows"

// statement generates the SQL source's one statement: read the source from
// the window's first instant, group by the columns and the bucket, upsert
// every point on the key — changing only the rows whose values moved — and
// answer the rows read, the points and the rows written. Every identifier
// is quoted; the values are parameters: Where's own first, then the unit,
// the zone and the window's first instant.
//
// With dateKey the bucket column is a date (a day or coarser unit): the key
// is the bucket's first local day, not its first instant.
func statement(into, src pg.Relation, s Source, b Bucket, dateKey bool) string {
	n := whereParams(s.Where)
	unit, zone, since := param(n+1), param(n+2), param(n+3)
	cols := append(append([]string{}, s.GroupBy...), b.Column)
	var vals []string
	for _, a := range s.Aggregates {
		vals = append(vals, a.Into)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "with grouped as (\n    select ")
	for _, g := range s.GroupBy {
		fmt.Fprintf(&sb, "%s,\n           ", pgcatalog.Quote(g))
	}
	fmt.Fprintf(&sb, "%s as %s", groupExpr(b.Unit, pgcatalog.Quote(s.Time), unit, zone), pgcatalog.Quote(b.Column))
	for _, a := range s.Aggregates {
		fmt.Fprintf(&sb, ",\n           %s as %s", aggregate(a), pgcatalog.Quote(a.Into))
	}
	fmt.Fprintf(&sb, ",\n           count(*) as %s\n      from %s\n     where %s >= %s\n",
		pgcatalog.Quote(rowsAlias), src.Quoted(), pgcatalog.Quote(s.Time), since)
	if strings.TrimSpace(s.Where) != "" {
		fmt.Fprintf(&sb, "       and (%s)\n", s.Where)
	}
	fmt.Fprintf(&sb, "     group by %s\n),\n", ordinals(len(cols)))
	fmt.Fprintf(&sb, "points as (\n    select ")
	for _, g := range s.GroupBy {
		fmt.Fprintf(&sb, "%s, ", pgcatalog.Quote(g))
	}
	fmt.Fprintf(&sb, "%s as %s", keyExpr(b.Unit, pgcatalog.Quote(b.Column), zone, dateKey), pgcatalog.Quote(b.Column))
	for _, v := range append(vals, rowsAlias) {
		fmt.Fprintf(&sb, ", %s", pgcatalog.Quote(v))
	}
	fmt.Fprintf(&sb, "\n      from grouped\n),\n")
	writeUpsert(&sb, into, cols, vals)
	fmt.Fprintf(&sb, "select (select coalesce(sum(%s), 0) from points)::int8,\n       (select count(*) from points),\n       (select count(*) from written)",
		pgcatalog.Quote(rowsAlias))
	return sb.String()
}

// writeUpsert writes the written CTE: one INSERT ... ON CONFLICT of every
// point, updating a row only when a value differs.
func writeUpsert(sb *strings.Builder, into pg.Relation, key, vals []string) {
	all := pgcatalog.QuoteAll(append(append([]string{}, key...), vals...))
	fmt.Fprintf(sb, "written as (\n    insert into %s as t (%s)\n    select %s from points\n",
		into.Quoted(), strings.Join(all, ", "), strings.Join(all, ", "))
	if len(vals) == 0 {
		fmt.Fprintf(sb, "    on conflict (%s) do nothing\n    returning 1\n)\n", strings.Join(pgcatalog.QuoteAll(key), ", "))
		return
	}
	fmt.Fprintf(sb, "    on conflict (%s) do update\n       set %s\n     where %s\n    returning 1\n)\n",
		strings.Join(pgcatalog.QuoteAll(key), ", "), assignments(vals), changed(vals))
}

// groupExpr is what the rows are grouped by. Under a day it is the
// bucket's first instant (pipe.bucket_start, cheap there); from a day up it
// is the local start, converted once a group by keyExpr, since the
// conversion to the first instant is the costly part.
func groupExpr(u Unit, ts, unit, zone string) string {
	if u == Minute || u == Hour {
		return "pipe.bucket_start(" + unit + ", " + ts + ", " + zone + ")"
	}
	return "date_trunc(" + unit + ", " + ts + " at time zone " + zone + ")"
}

// keyExpr turns a group's bucket into the key: the first instant of the
// local start (pipe.local_start; see the migration 0007_bucket.sql), the
// same instant pipe.bucket_start answers — or for a date key the local
// start's day.
func keyExpr(u Unit, col, zone string, dateKey bool) string {
	if u == Minute || u == Hour {
		return col
	}
	if dateKey {
		return col + "::date" // the local start's day
	}
	return "pipe.local_start(" + col + ", " + zone + ")"
}

func aggregate(a Aggregate) string {
	if a.Column == "" {
		return "count(*)"
	}
	return string(a.Func) + "(" + pgcatalog.Quote(a.Column) + ")"
}

func assignments(cols []string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = pgcatalog.Quote(c) + " = excluded." + pgcatalog.Quote(c)
	}
	return strings.Join(parts, ",\n           ")
}

// changed is the upsert's guard: the target row's values differ from the
// point's, NULLs compared as values.
func changed(cols []string) string {
	t, x := make([]string, len(cols)), make([]string, len(cols))
	for i, c := range cols {
		t[i], x[i] = "t."+pgcatalog.Quote(c), "excluded."+pgcatalog.Quote(c)
	}
	return "(" + strings.Join(t, ", ") + ") is distinct from (" + strings.Join(x, ", ") + ")"
}

func ordinals(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strconv.Itoa(i + 1)
	}
	return strings.Join(parts, ", ")
}

func param(n int) string { return "$" + strconv.Itoa(n) }

var placeholder = regexp.MustCompile(`\$([0-9]+)`)

// whereParams answers the highest $N Where uses: its parameters are $1 to
// $N, and the statement's own follow them.
func whereParams(where string) int {
	n := 0
	for _, m := range placeholder.FindAllStringSubmatch(where, -1) {
		if v, err := strconv.Atoi(m[1]); err == nil && v > n && v < 1000 {
			n = v
		}
	}
	return n
}
