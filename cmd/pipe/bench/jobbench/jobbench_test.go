package jobbench

import (
	"bytes"
	"context"
	"flag"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

var (
	fullBench = flag.Bool("fullbench", false, "run TestFullBench: every figure at its default size (minutes)")
	fullURL   = flag.String("fullbench.url", "", "TestFullBench's database (migrated first); default a fresh fixtures database")
	fullOnly  = flag.String("fullbench.only", "", "TestFullBench's figures, comma-separated; default all")
	fullN     = flag.Int("fullbench.n", 0, "TestFullBench's N; default 100000")
)

func TestMain(m *testing.M) {
	HelperMain() // the pickup-process figure re-executes this test binary as its helper
	flag.Parse()
	os.Exit(m.Run())
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// tiny is a run small enough for a test: it checks the figures' plumbing,
// never their speed.
var tiny = Options{N: 200, BatchSize: 50, Slots: 50, StepJobs: 20, StepConcurrency: 8, PickupSamples: 5, Backlog: 2000,
	RecoveryCuts: 3, CutEvery: 200 * time.Millisecond}

func TestRunReportsEveryFigureAndCleansUp(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := t.Context()
	// A user's own job, with its journal, which the bench must not touch.
	user := pipeline.MustJob("user.job", func(s string) string { return s },
		func(context.Context, *pipeline.Run[string]) (string, error) { return "", nil })
	if _, err := user.Enqueue(ctx, pool, "k1"); err != nil {
		t.Fatal(err)
	}
	before := counts(t, pool)

	var out bytes.Buffer
	res, err := Run(ctx, pool, tiny, &out)
	if err != nil {
		t.Fatalf("Run: %v\noutput:\n%s", err, out.String())
	}
	t.Logf("output:\n%s", out.String())
	if len(res.Figures) != len(AllFigures) {
		t.Fatalf("got %d figures, want %d (%v)", len(res.Figures), len(AllFigures), AllFigures)
	}
	for _, name := range AllFigures {
		f, ok := res.Figure(name)
		if !ok {
			t.Errorf("figure %s is missing", name)
			continue
		}
		if !strings.Contains(out.String(), "\n"+name+": ") {
			t.Errorf("figure %s has no line of its own in the output", name)
		}
		if f.Line == "" || !strings.HasPrefix(f.Line, name+": ") {
			t.Errorf("figure %s: line %q", name, f.Line)
		}
		switch name {
		case FigurePickup, FigurePickupProcess, FigurePickupBacklog, FigurePickupDefaults:
			if f.Samples != tiny.PickupSamples || f.Median <= 0 || f.P90 < f.Median || f.Max < f.P90 {
				t.Errorf("figure %s: samples %d median %v p90 %v max %v", name, f.Samples, f.Median, f.P90, f.Max)
			}
		default:
			if f.Rate <= 0 || f.Elapsed <= 0 || f.Count <= 0 {
				t.Errorf("figure %s: rate %v elapsed %v count %d", name, f.Rate, f.Elapsed, f.Count)
			}
		}
	}
	// pickup-defaults runs after pickup set the queue's wake throttle to
	// River's 2 ms in this process: at the default 250 ms window the
	// trickle's second job (20 ms after the first) is kept silent and waits
	// for the worker's next pass, a poll (250 ms) later.
	if f, _ := res.Figure(FigurePickupDefaults); f.TrickleMedian <= 0 || f.TrickleP90 < f.TrickleMedian || f.TrickleMax < 100*time.Millisecond {
		t.Errorf("pickup-defaults: trickle median %v p90 %v max %v: no job waited for a pass, so the throttle was not the default's",
			f.TrickleMedian, f.TrickleP90, f.TrickleMax)
	}
	if f, _ := res.Figure(FigureSteps); f.RunsRate <= 0 || f.Count != 3*tiny.StepJobs {
		t.Errorf("steps: runs/s %v, count %d", f.RunsRate, f.Count)
	}
	if f, _ := res.Figure(FigureRecovery); f.Samples < tiny.RecoveryCuts || f.Median <= 0 || f.P99 < f.Median || f.Max < f.P99 || f.CalmRate <= 0 {
		t.Errorf("recovery: samples %d p50 %v p99 %v max %v, calm rate %v", f.Samples, f.Median, f.P99, f.Max, f.CalmRate)
	}
	if f, _ := res.Figure(FigureWork); f.SettledRate <= 0 || f.SettledRate > f.Rate {
		t.Errorf("work: settled rate %v against rate %v", f.SettledRate, f.Rate)
	}
	// The worker's CPU a job is always read; the database sessions' when
	// the database is on this machine, as the test kit's is.
	if f, _ := res.Figure(FigureWork); f.CPU.ProcessUs <= 0 || !strings.Contains(f.Line, "CPU a job: ") ||
		(f.CPU.DatabaseKnown && f.CPU.DatabaseUs <= 0) {
		t.Errorf("work: CPU %+v in %q", f.CPU, f.Line)
	}
	if after := counts(t, pool); after != before {
		t.Errorf("rows after the run %+v; before %+v: the bench left rows or removed the user's", after, before)
	}
}

type tableCounts struct{ userJobs, userEvents, benchJobs, allEvents int }

func counts(t *testing.T, pool *pgxpool.Pool) tableCounts {
	t.Helper()
	var c tableCounts
	err := pool.QueryRow(t.Context(), `
		select (select count(*) from pipe.jobs where name = 'user.job'),
		       (select count(*) from pipe.journal e join pipe.jobs j on j.id = e.job_id where j.name = 'user.job'),
		       (select count(*) from pipe.jobs where name like 'pipe.bench.%'),
		       (select count(*) from pipe.journal)`).Scan(&c.userJobs, &c.userEvents, &c.benchJobs, &c.allEvents)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRunRunsOnlyTheNamedFigures(t *testing.T) {
	pool := fixtures.DB(t)
	o := tiny
	o.Only = []string{FigureWork}
	var out bytes.Buffer
	res, err := Run(t.Context(), pool, o, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Figures) != 1 || res.Figures[0].Name != FigureWork {
		t.Fatalf("figures %+v; want work alone", res.Figures)
	}
}

func TestRunRefusesBadOptions(t *testing.T) {
	for _, o := range []Options{{Only: []string{"nope"}}, {N: -1}, {BatchSize: 10_001}} {
		if _, err := Run(t.Context(), nil, o, io.Discard); err == nil {
			t.Errorf("Run(%+v) answered no error", o)
		}
	}
}

func TestRunRefusesAnUnmigratedDatabase(t *testing.T) {
	pool := fixtures.DB(t)
	if _, err := pool.Exec(t.Context(), `drop schema pipe cascade`); err != nil {
		t.Fatal(err)
	}
	_, err := Run(t.Context(), pool, tiny, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "pipe migrate") {
		t.Fatalf("err = %v; want one naming pipe migrate", err)
	}
}

// TestFullBench runs every figure at its default size and prints the lines:
//
//	go test ./cmd/pipe/bench/jobbench -run TestFullBench -fullbench -v [-fullbench.url URL] [-cpuprofile cpu.out]
//
// It measures; it asserts nothing about speed.
func TestFullBench(t *testing.T) {
	if !*fullBench {
		t.Skip("pass -fullbench to measure")
	}
	var pool *pgxpool.Pool
	if *fullURL == "" {
		pool = fixtures.DB(t)
	} else {
		var err error
		if pool, err = pgxpool.New(t.Context(), *fullURL); err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		if _, err := pipeline.Migrate(t.Context(), pool); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{N: *fullN}
	if *fullOnly != "" {
		o.Only = strings.Split(*fullOnly, ",")
	}
	if _, err := Run(t.Context(), pool, o, os.Stdout); err != nil {
		t.Fatal(err)
	}
}

// benchFigure runs one figure of size b.N and reports its rate; ns/op,
// which would count set-up and cleanup, is left out.
func benchFigure(b *testing.B, name string, o Options, unit string) {
	pool := fixtures.DB(b)
	o.Logger = quiet
	o, err := o.withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	bn := &bench{pool: pool, o: o}
	b.ResetTimer()
	f, err := bn.figure(b.Context(), name)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(f.Rate, unit)
}

// BenchmarkEnqueueMany enqueues b.N jobs in batches of 1,000.
func BenchmarkEnqueueMany(b *testing.B) {
	benchFigure(b, FigureEnqueueMany, Options{N: max(b.N, 1)}, "jobs/s")
}

// BenchmarkWork works down b.N no-op jobs enqueued beforehand.
func BenchmarkWork(b *testing.B) {
	benchFigure(b, FigureWork, Options{N: max(b.N, 1)}, "jobs/s")
}

// BenchmarkSteps runs b.N durable jobs of 3 steps, 64 at a time.
func BenchmarkSteps(b *testing.B) {
	benchFigure(b, FigureSteps, Options{StepJobs: max(b.N, 1)}, "steps/s")
}

// BenchmarkEnqueueOne times one Enqueue: a round trip and a commit.
func BenchmarkEnqueueOne(b *testing.B) {
	pool := fixtures.DB(b)
	job := pipeline.MustJob("pipe.bench.one", inputKey,
		func(context.Context, *pipeline.Run[input]) (none, error) { return none{}, nil })
	ctx := b.Context()
	i := 0
	b.ResetTimer()
	for b.Loop() {
		i++
		if _, err := job.Enqueue(ctx, pool, input{I: i}); err != nil {
			b.Fatal(err)
		}
	}
}
