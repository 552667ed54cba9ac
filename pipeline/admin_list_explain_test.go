package pipeline_test

import (
	"context"
	"regexp"
	"slices"
	"testing"

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
	return explainAsRun(t, pool, "set local plan_cache_mode = "+mode, "", sql, args)
}
