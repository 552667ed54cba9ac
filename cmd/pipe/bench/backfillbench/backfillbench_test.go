package backfillbench_test

import (
	"io"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/bench/backfillbench"
	"github.com/pipekit/pipe/fixtures"
)

func TestTheBenchSetsEveryRowBothWaysAndReportsTheWriter(t *testing.T) {
	pool := fixtures.DB(t)
	res, err := backfillbench.Run(t.Context(), pool, backfillbench.Options{Rows: 3000}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Figures) != 2 || res.Speed <= 0 {
		t.Fatalf("the bench answered %+v", res)
	}
	for _, f := range res.Figures {
		if f.Ms <= 0 || f.Writes == 0 || f.WriteP99Ms <= 0 {
			t.Fatalf("the figure %+v is empty", f)
		}
	}
	var left int
	if err := pool.QueryRow(t.Context(), `select count(*) from pg_class where relname = 'pipe_bench_backfill'`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("the bench left its table (%d, %v)", left, err)
	}
}
