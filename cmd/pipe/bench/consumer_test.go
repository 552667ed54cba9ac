package bench_test

import (
	"strings"
	"testing"
)

// pipe bench consumer prints an anchor and a consumer line per batch size,
// leaves no run, cursor or table behind, and refuses a batch below 1.
func TestBenchConsumer(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "bench", "consumer", "--items", "300", "--keys", "2", "--batch", "7,50")
	wantOK(t, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	want := []string{"anchor batch 7: 600 items in ", "consumer batch 7: 600 items in ", "anchor batch 50: 600 items in ", "consumer batch 50: 600 items in "}
	if len(lines) != len(want) {
		t.Fatalf("bench printed:\n%s", r.stdout)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Fatalf("line %d is %q; want %q...", i, lines[i], w)
		}
	}
	var left int
	err := b.pool.QueryRow(t.Context(), `select (select count(*) from pipe.jobs) + (select count(*) from pipe.consumer_cursors)
		+ (select count(*) from pg_tables where tablename = 'pipe_bench_consumer')`).Scan(&left)
	if err != nil || left != 0 {
		t.Fatalf("%d rows or tables left behind (%v)", left, err)
	}
	type figure struct {
		Name  string  `json:"name"`
		Batch int     `json:"batch"`
		Items int     `json:"items"`
		Rate  float64 `json:"rate"`
	}
	j := b.pipe(t, "bench", "consumer", "--items", "100", "--batch", "10", "--json")
	wantOK(t, j)
	figs := decodeLoose[[]figure](t, j.stdout)
	if len(figs) != 2 || figs[1].Name != "consumer" || figs[1].Items != 100 || figs[1].Batch != 10 || figs[1].Rate <= 0 {
		t.Fatalf("bench --json = %+v", figs)
	}
	wantError(t, b.pipe(t, "bench", "consumer", "--batch", "0"), 2, "X_CONFIG_INVALID")
}
