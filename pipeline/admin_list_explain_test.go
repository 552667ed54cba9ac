package pipeline_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// seqScan finds the sequential scans of a finished partition in a plan.
var seqScan = regexp.MustCompile(`Seq Scan on (runs_(?:done|dead)_\w+)`)

// filledPartitions answers the finished partitions that hold ten pages or
// more: a plan reads one of a few pages (today's, early in the day) or none
// (one ahead of now) whole at less cost than through an index.
func filledPartitions(t *testing.T, pool *pgxpool.Pool) map[string]bool {
	t.Helper()
	rows, err := pool.Query(context.Background(), `select name from pipe.run_partitions() p
		join pg_class c on c.oid = ('pipe.' || quote_ident(p.name))::regclass
		where p.tree in ('runs_done', 'runs_dead') and c.relpages >= 10`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 10 {
		t.Fatalf("the runs fill %d finished partitions; want them spread over more", len(names))
	}
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out
}

// indexesRead answers the indexes a plan reads, a partition's by the
// index of its tree it belongs to (runs_done_name for each
// runs_done_YYYYMMDD_name_id_idx), from parents (see indexParents).
func indexesRead(plan string, parents map[string]string) []string {
	var out []string
	for _, m := range indexScan.FindAllStringSubmatch(plan, -1) {
		n := m[1]
		if p, ok := parents[n]; ok {
			n = p
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// indexScan finds the indexes a plan reads.
var indexScan = regexp.MustCompile(`(?:Index Scan(?: Backward)? using|Index Only Scan(?: Backward)? using|Bitmap Index Scan on) (\w+)`)

// indexParents answers the finished trees' indexes each partition's index
// belongs to.
func indexParents(t *testing.T, pool *pgxpool.Pool) map[string]string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `select c.relname::text, p.relname::text from pg_inherits i
		join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
		where c.relkind = 'i' and p.relnamespace = 'pipe'::regnamespace`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var child, parent string
	_, err = pgx.ForEachRow(rows, []any{&child, &parent}, func() error {
		out[child] = parent
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// listExplain answers the plan of sql prepared, as pgx prepares it, and
// executed with args under plan_cache_mode mode, in a transaction rolled
// back.
func listExplain(t *testing.T, pool *pgxpool.Pool, mode, sql string, args []any) string {
	t.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, "set local plan_cache_mode = "+mode); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Prepare(ctx, "list", sql); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Conn().Deallocate(ctx, "list") }()
	lits := make([]string, len(args))
	for i, a := range args {
		lits[i] = listLiteral(a)
	}
	rows, err := tx.Query(ctx, "explain execute list("+strings.Join(lits, ", ")+")")
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// listLiteral writes one of List's arguments as an SQL literal.
func listLiteral(a any) string {
	switch v := a.(type) {
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case int:
		return strconv.Itoa(v)
	case uuid.UUID:
		return "'" + v.String() + "'::uuid"
	case time.Time:
		return "'" + v.Format(time.RFC3339Nano) + "'::timestamptz"
	}
	panic(fmt.Sprintf("listLiteral: %T", a))
}
