package bench_test

import (
	"math"
	"strings"
	"testing"
)

// memory is a run's memory as --json prints it.
type memory struct {
	Peak float64 `json:"peakRssMiB"`
	Idle float64 `json:"idleRssMiB"`
	Own  float64 `json:"ownRssMiB"`
}

// wantMemory fails the test unless m holds a peak and an idle pipe's peak,
// both measured, and the own part is their difference.
func wantMemory(t *testing.T, what string, m memory) {
	t.Helper()
	if m.Peak <= 0 || m.Idle <= 0 || math.Abs(m.Own-(m.Peak-m.Idle)) > 1e-9 {
		t.Fatalf("%s memory %+v: want a peak, an idle peak and their difference", what, m)
	}
}

// pipe bench import times the anchor, starts an idle pipe, imports the
// generated orders in a helper process and reports its peak beside the
// idle one's; the table is gone after.
func TestBenchImportReportsTheImportsOwnMemory(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "bench", "import", "--rows", "3000", "--page-bytes", "65536")
	wantOK(t, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "copy+upsert (anchor): 3000 rows in ") ||
		!strings.HasPrefix(lines[1], "idle pipe (connected, waiting): peak rss ") ||
		!strings.HasPrefix(lines[2], "import: 3000 rows in ") || !strings.Contains(lines[2], "the import's own ") {
		t.Fatalf("bench printed:\n%s", r.stdout)
	}
	type result struct {
		Rows   int64   `json:"rows"`
		Pages  int     `json:"pages"`
		Anchor float64 `json:"anchorSeconds"`
		memory
	}
	j := b.pipe(t, "bench", "import", "--rows", "2000", "--page-bytes", "65536", "--skip-anchor", "--json")
	wantOK(t, j)
	res := decodeLoose[result](t, j.stdout)
	if res.Rows != 2000 || res.Pages < 2 || res.Anchor != 0 {
		t.Fatalf("bench import --json = %+v", res)
	}
	wantMemory(t, "import", res.memory)
	var tables int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pg_tables where tablename = 'pipe_bench_orders'`).Scan(&tables); err != nil || tables != 0 {
		t.Fatalf("%d tables left behind (%v)", tables, err)
	}
	wantError(t, b.pipe(t, "bench", "import", "--page-bytes", "1024"), 2, "X_CONFIG_INVALID")
}

// pipe bench import --parallel 2 also times one plain COPY and the import
// by two ranges, with its helper's memory.
func TestBenchImportParallel(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "bench", "import", "--rows", "3000", "--page-bytes", "65536", "--skip-anchor", "--parallel", "2")
	wantOK(t, r)
	if !strings.Contains(r.stdout, "copy (one plain COPY, no key): ") || !strings.Contains(r.stdout, "import --parallel 2: 3000 rows in ") {
		t.Fatalf("bench printed:\n%s", r.stdout)
	}
	type result struct {
		Parallel float64 `json:"parallelSeconds"`
		Copy     float64 `json:"copySeconds"`
		Memory   memory  `json:"parallelMemory"`
	}
	j := b.pipe(t, "bench", "import", "--rows", "2000", "--page-bytes", "65536", "--skip-anchor", "--parallel", "2", "--json")
	wantOK(t, j)
	res := decodeLoose[result](t, j.stdout)
	if res.Parallel <= 0 || res.Copy <= 0 {
		t.Fatalf("bench import --parallel --json = %+v", res)
	}
	wantMemory(t, "parallel import", res.Memory)
}

// pipe bench import --no-key imports every row, as COPY does, beside one
// plain COPY as its anchor, by one run and by two ranges.
func TestBenchImportWithoutAKey(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "bench", "import", "--rows", "3000", "--page-bytes", "65536", "--no-key", "--parallel", "2")
	wantOK(t, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "copy (anchor, one plain COPY, no key): ") ||
		!strings.HasPrefix(lines[2], "import: 3000 rows in ") || !strings.Contains(lines[2], "x the anchor's time") ||
		!strings.HasPrefix(lines[4], "import --parallel 2: 3000 rows in ") {
		t.Fatalf("bench printed:\n%s", r.stdout)
	}
}

// pipe bench export reports each of its five runs' peak beside an idle
// pipe's, and the highest of them; one of them reads 2 ranges in parallel.
func TestBenchExportReportsEachRunsOwnMemory(t *testing.T) {
	t.Parallel()
	b := setup(t)
	type run struct {
		Format   string  `json:"format"`
		Order    string  `json:"order"`
		Parallel int     `json:"parallel"`
		Secs     float64 `json:"seconds"`
		memory
	}
	type result struct {
		Rows int64 `json:"rows"`
		Runs []run `json:"runs"`
		memory
	}
	j := b.pipe(t, "bench", "export", "--rows", "2000", "--page-rows", "500", "--json")
	wantOK(t, j)
	res := decodeLoose[result](t, j.stdout)
	if res.Rows != 2000 || len(res.Runs) != 5 || res.Runs[1].Parallel != 2 {
		t.Fatalf("bench export --json = %+v", res)
	}
	wantMemory(t, "export", res.memory)
	var peak, own float64
	for _, r := range res.Runs {
		wantMemory(t, r.Format+" "+r.Order, r.memory)
		if r.Idle != res.Idle || r.Secs <= 0 {
			t.Fatalf("run %+v of %+v", r, res)
		}
		peak, own = max(peak, r.Peak), max(own, r.Own)
	}
	if res.Peak != peak || res.Own != own {
		t.Fatalf("the export's memory %+v is not its runs' highest (%v, %v)", res.memory, peak, own)
	}
}
