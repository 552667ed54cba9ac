package bench_test

import (
	"strings"
	"testing"
)

// storeReads are the reads pipe bench store measures, every one.
var storeReads = []string{"list", "list, next page", "list, previous page", "list by name", "list by queue", "list by tenant",
	"list by tenant with no runs", "list by state ready", "list by state delayed", "list by state running",
	"list by state suspended", "list by state done", "list by state failed", "list by state dead", "list by state cancelled",
	"list by id prefix", "list created in an hour", "list by name and state dead", "list by queue and tenant", "list by key",
	"list by concurrency key", "show a finished run", "show an open run", "queue stats", "counters, last hour"}

// storeResult is what the test reads of pipe bench store --json.
type storeResult struct {
	Databases []string `json:"databases"`
	Finished  int      `json:"finished"`
	Open      int      `json:"open"`
	From      string   `json:"from"`
	Fill      struct {
		Finished, Open, JournalRows int64
		CopyMs, RowsPerSecond       float64
	} `json:"fill"`
	Sizes struct {
		RunsBytes, RunsIndexBytes, JournalBytes, TotalBytes, FinishedBytes, OpenBytes int64
		BytesPerFinishedRun                                                           float64
	} `json:"sizes"`
	Reads []struct {
		Name                string
		Samples             int
		P50Ms, P99Ms, MaxMs float64
		Rows                int
		Plans               []string
	} `json:"reads"`
	Throughput struct {
		Full, Empty             storePass
		EnqueueRatio, WorkRatio float64
		Worker                  string
	} `json:"throughput"`
	Drop struct {
		Day               string
		PartitionsDropped int
		Purged, Enqueued  int64
		During            []struct {
			Kind    string
			Samples int
			MaxMs   float64
		}
	} `json:"drop"`
}

type storePass struct {
	Store                           string
	Jobs                            int
	EnqueuePerSecond, WorkPerSecond float64
	EnqueueRounds, WorkRounds       []float64
	Claim                           struct{ Samples int }
}

// pipe bench store fills scratch databases at a tiny volume, reports
// every figure with sane values, in text and as JSON, leaves no scratch
// database behind, and refuses a volume below its floor.
func TestBenchStore(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const finished, open, jobs = 20_000, 500, 300
	j := b.pipe(t, "bench", "store", "--finished", "20000", "--open", "500", "--jobs", "300", "--json")
	wantOK(t, j)
	r := decodeLoose[storeResult](t, j.stdout)
	if r.Finished != finished || r.Open != open || r.Fill.Finished != finished || r.Fill.Open != open ||
		r.Fill.CopyMs <= 0 || r.Fill.RowsPerSecond <= 0 {
		t.Fatalf("fill: %+v", r.Fill)
	}
	// One journal row per four runs, give or take chance.
	if runs := int64(finished + open); r.Fill.JournalRows < runs/5 || r.Fill.JournalRows > runs/3 {
		t.Fatalf("%d journal rows for %d runs", r.Fill.JournalRows, runs)
	}
	s := r.Sizes
	if s.RunsBytes <= s.RunsIndexBytes || s.RunsIndexBytes <= 0 || s.JournalBytes <= 0 || s.TotalBytes != s.RunsBytes+s.JournalBytes ||
		s.FinishedBytes >= s.RunsBytes || s.OpenBytes <= 0 || s.BytesPerFinishedRun < 100 || s.BytesPerFinishedRun > 10_000 {
		t.Fatalf("sizes: %+v", s)
	}
	checkStoreReads(t, r)
	th := r.Throughput
	for _, p := range []storePass{th.Full, th.Empty} {
		if p.Jobs != jobs || p.EnqueuePerSecond <= 0 || p.WorkPerSecond <= 0 || p.Claim.Samples == 0 ||
			len(p.EnqueueRounds) != 2 || len(p.WorkRounds) != 2 {
			t.Fatalf("throughput pass: %+v", p)
		}
	}
	if th.Full.Store != "full" || th.Empty.Store != "empty" || th.EnqueueRatio <= 0 || th.WorkRatio <= 0 || th.Worker == "" {
		t.Fatalf("throughput: %+v", th)
	}
	// The oldest day holds about a fourteenth of the finished runs, 3% of
	// them dead or failed in weekly partitions the drop leaves.
	d := r.Drop
	if d.Day != r.From || d.PartitionsDropped < 2 || d.Purged < finished/14/2 || d.Purged > finished/14*2 || d.Enqueued == 0 || len(d.During) != 3 {
		t.Fatalf("drop: %+v", d)
	}
	wantNoDatabases(t, b, r.Databases)

	txt := b.pipe(t, "bench", "store", "--finished", "2000", "--open", "50", "--jobs", "50", "--samples", "3")
	wantOK(t, txt)
	for _, w := range append([]string{"# pipe bench store: PostgreSQL ", "\nfill: 2,000 finished + 50 open runs", "\nsize: runs ",
		"\nreads (3 timed calls each", "\nthroughput (50 no-op runs", "  enqueue-many", "  work-down", "  claim p50 / p99 ms",
		"\ndrop a day: Maintain(Retention{Done: ", "  enqueue   during the drop: ", "  claim     during the drop: "}, storeReads...) {
		if !strings.Contains(txt.stdout, w) {
			t.Fatalf("the text lacks %q:\n%s", w, txt.stdout)
		}
	}
	header, _, _ := strings.Cut(txt.stdout, "\n")
	_, names, _ := strings.Cut(header, "scratch databases ")
	names, _, _ = strings.Cut(names, " (dropped after)")
	wantNoDatabases(t, b, strings.Split(names, ", "))

	wantError(t, b.pipe(t, "bench", "store", "--finished", "10"), 2, "X_CONFIG_INVALID")
}

// checkStoreReads checks that every read was timed, answered what the
// fixture holds and has a plan that scans the runs.
func checkStoreReads(t *testing.T, r storeResult) {
	t.Helper()
	if len(r.Reads) != len(storeReads) {
		t.Fatalf("%d reads, want %d: %+v", len(r.Reads), len(storeReads), r.Reads)
	}
	rows := map[string]int{"list": 50, "list, next page": 50, "list, previous page": 50, "list by tenant with no runs": 0,
		"list by state done": 50, "list by state ready": 50, "show a finished run": 1, "show an open run": 1}
	for i, rd := range r.Reads {
		if rd.Name != storeReads[i] || rd.Samples != 50 || rd.P50Ms <= 0 || rd.P50Ms > rd.P99Ms || rd.P99Ms > rd.MaxMs || len(rd.Plans) == 0 {
			t.Fatalf("read %d: %+v", i, rd)
		}
		if want, ok := rows[rd.Name]; ok && rd.Rows != want {
			t.Fatalf("%s answered %d rows, want %d", rd.Name, rd.Rows, want)
		}
		if strings.HasPrefix(rd.Name, "list by key") && rd.Rows < 1 {
			t.Fatalf("%s found no run", rd.Name)
		}
		if !strings.HasPrefix(rd.Name, "counters") && !strings.Contains(strings.Join(rd.Plans, " "), "runs_") {
			t.Fatalf("%s's plans scan no runs: %q", rd.Name, rd.Plans)
		}
	}
}

// wantNoDatabases fails the test if a database of names is left.
func wantNoDatabases(t *testing.T, b *bundle, names []string) {
	t.Helper()
	if len(names) != 2 {
		t.Fatalf("scratch databases %q, want two", names)
	}
	var left int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pg_database where datname = any($1)`, names).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d of the scratch databases %q left (%v)", left, names, err)
	}
}
