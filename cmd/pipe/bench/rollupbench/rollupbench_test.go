package rollupbench_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/bench/rollupbench"
	"github.com/pipekit/pipe/fixtures"
)

// At a small size the bench runs end to end: both sizes read the same
// window's rows (give or take the one row a second between the two loads
// may move past the window's edge), and its tables and job rows are gone
// after.
func TestTheBenchReadsTheSameWindowAtBothSizes(t *testing.T) {
	pool := fixtures.DB(t)
	var out bytes.Buffer
	res, err := rollupbench.Run(context.Background(), pool, rollupbench.Options{Rows: 20_000, First: 2_000, Runs: 2}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Figures) != 2 || res.Figures[0].RowsRead == 0 || abs(res.Figures[0].RowsRead-res.Figures[1].RowsRead) > 1 ||
		len(res.Figures[1].AllRunsMs) != 2 || !strings.Contains(out.String(), "rollup at 20000 rows") {
		t.Fatalf("figures %+v\n%s", res.Figures, out.String())
	}
	var left int
	if err := pool.QueryRow(context.Background(), `select (select count(*) from pg_class where relname like 'pipe_bench_rollup%')
		+ (select count(*) from pipe.jobs where name like 'pipe.bench.rollup.%')`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d bench tables or job rows left (%v)", left, err)
	}
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
