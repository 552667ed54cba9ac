package bench_test

import (
	"strings"
	"testing"
)

func TestBenchJobs(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "bench", "jobs", "--only", "enqueue-many,work", "--n", "200", "--slots", "20")
	wantOK(t, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "# ") || !strings.HasPrefix(lines[1], "enqueue-many: ") || !strings.HasPrefix(lines[2], "work: ") {
		t.Fatalf("bench printed:\n%s", r.stdout)
	}

	type figure struct {
		Name  string  `json:"name"`
		Count int     `json:"count"`
		Rate  float64 `json:"rate"`
	}
	j := b.pipe(t, "bench", "jobs", "--only", "enqueue-many", "--n", "100", "--json")
	wantOK(t, j)
	figs := decodeLoose[[]figure](t, j.stdout)
	if len(figs) != 1 || figs[0].Name != "enqueue-many" || figs[0].Count != 100 || figs[0].Rate <= 0 {
		t.Fatalf("bench --json = %+v", figs)
	}

	wantError(t, b.pipe(t, "bench", "jobs", "--only", "warp-speed"), 2, "X_CONFIG_INVALID")
}
