package pipemetrics_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/pipeline/pipemetrics"
)

type tinyInput struct {
	Key string `json:"key"`
}

// bundle is one test's worker over a tiny job: runs keyed "hold" report on
// started and wait for release; the others return at once.
type bundle struct {
	pool    *pgxpool.Pool
	job     *pipeline.Job[tinyInput, struct{}]
	worker  *pipeline.Worker
	started chan string
	release chan struct{}
}

func setup(t *testing.T, pool *pgxpool.Pool) *bundle {
	t.Helper()
	b := &bundle{pool: pool, started: make(chan string, 1), release: make(chan struct{})}
	b.job = pipeline.MustJob("metrics.tiny", func(in tinyInput) string { return in.Key },
		func(ctx context.Context, run *pipeline.Run[tinyInput]) (struct{}, error) {
			if run.Input.Key == "hold" {
				b.started <- run.ID
				<-b.release
			}
			return struct{}{}, nil
		}, pipeline.JobOptions[tinyInput, struct{}]{Queue: "metrics"})
	reg, err := pipeline.NewRegistry(b.job)
	if err != nil {
		t.Fatal(err)
	}
	b.worker, err = pipeline.NewWorker(pool, pipeline.WorkerConfig{
		Registry: reg, Queues: map[string]int{"metrics": 2}, ID: "metrics-w1",
		PollInterval: 10 * time.Millisecond, IdlePollMax: 50 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *bundle) enqueue(t *testing.T, key string, opts ...pipeline.EnqueueOptions) {
	t.Helper()
	if _, err := b.job.Enqueue(t.Context(), b.pool, tinyInput{Key: key}, opts...); err != nil {
		t.Fatal(err)
	}
}

// scrape answers the handler's exposition, one line a metric sample.
func scrape(t *testing.T, c *pipemetrics.Collector) string {
	t.Helper()
	rec := httptest.NewRecorder()
	pipemetrics.Handler(c).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("scrape answered %d:\n%s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// wantLines fails the test unless every line is in the exposition.
func wantLines(t *testing.T, out string, lines ...string) {
	t.Helper()
	have := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		have[l] = true
	}
	for _, l := range lines {
		if !have[l] {
			t.Errorf("the scrape lacks %q", l)
		}
	}
	if t.Failed() {
		t.Logf("scrape:\n%s", out)
	}
}

// waitFor polls cond until it holds, for at most 20 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
		case <-tick.C:
		}
	}
}

func TestCollectorReadsTheDatabaseAndTheWorker(t *testing.T) {
	t.Parallel()
	b := setup(t, fixtures.DB(t))
	b.enqueue(t, "a")
	b.enqueue(t, "b")
	b.enqueue(t, "later", pipeline.EnqueueOptions{Delay: time.Hour})
	if err := pipeline.NewAdmin(b.pool).PauseQueue(t.Context(), "idle"); err != nil {
		t.Fatal(err)
	}
	if err := b.worker.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.worker.Shutdown(context.Background()) })
	t.Cleanup(func() { close(b.release) }) // before the shutdown: the held body ignores its context
	waitFor(t, "two completed runs", func() bool { return b.worker.Stats().Completed.Load() == 2 })
	b.enqueue(t, "hold")
	<-b.started
	waitFor(t, "one run in flight", func() bool { return b.worker.InFlight() == 1 })

	out := scrape(t, pipemetrics.New(b.pool, b.worker))
	wantLines(t, out,
		`queue_depth{queue="metrics",state="ready"} 0`,
		`queue_depth{queue="metrics",state="delayed"} 1`,
		`queue_depth{queue="metrics",state="running"} 1`,
		`queue_depth{queue="metrics",state="suspended"} 0`,
		`queue_paused{queue="metrics"} 0`,
		`queue_depth{queue="idle",state="ready"} 0`,
		`queue_paused{queue="idle"} 1`,
		`jobs_24h{job="metrics.tiny",outcome="done"} 2`,
		`jobs_24h{job="metrics.tiny",outcome="dead"} 0`,
		`job_store_up 1`,
		`jobs_total{outcome="completed",queue="metrics"} 2`,
		`job_leases_lost_total{queue="metrics"} 0`,
		`queue_demand{queue="metrics"} 1`,
		`job_worker_in_flight{worker="metrics-w1"} 1`,
		`job_worker_capacity{worker="metrics-w1"} 2`,
		"# TYPE jobs_total counter",
		"# TYPE queue_depth gauge",
	)
	if !strings.Contains(out, `jobs_done_seconds_24h{job="metrics.tiny"} `) || !strings.Contains(out, "go_goroutines ") {
		t.Errorf("the scrape lacks the done seconds or the Go runtime:\n%s", out)
	}
}

func TestCollectorServesTheWorkerWhenTheDatabaseIsDown(t *testing.T) {
	t.Parallel()
	pool, err := pgxpool.New(t.Context(), "postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	b := setup(t, pool)

	out := scrape(t, pipemetrics.New(pool, b.worker))
	wantLines(t, out, `job_store_up 0`, `job_worker_capacity{worker="metrics-w1"} 2`, `job_worker_in_flight{worker="metrics-w1"} 0`,
		`job_leases_lost_total{queue="metrics"} 0`)
	if strings.Contains(out, "queue_depth{") || strings.Contains(out, "jobs_24h{") {
		t.Fatalf("a failed read served database metrics:\n%s", out)
	}
}

func TestCollectorWithoutWorkers(t *testing.T) {
	t.Parallel()
	pool := fixtures.DB(t)
	out := scrape(t, pipemetrics.New(pool))
	wantLines(t, out, `job_store_up 1`)
	if strings.Contains(out, "jobs_total{") || strings.Contains(out, "job_worker_") {
		t.Fatalf("a collector without workers served worker metrics:\n%s", out)
	}
}
