package pipeline_test

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// startWorker runs a worker over jobs with test-fast polling until the test ends.
func startWorker(t *testing.T, pool *pgxpool.Pool, cfg pipeline.WorkerConfig, jobs ...pipeline.Registrable) *pipeline.Worker {
	t.Helper()
	reg, err := pipeline.NewRegistry(jobs...)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Registry = reg
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 10 * time.Millisecond
	}
	if cfg.BusyDelay == 0 {
		cfg.BusyDelay = 20 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.IdlePollMax == 0 {
		cfg.IdlePollMax = 50 * time.Millisecond
	}
	if cfg.ListenConfig == nil {
		cfg.ListenConfig = fixtures.ListenConfig(t, pool) // past the kit's PgBouncer, when the tests run through it
	}
	w, err := pipeline.NewWorker(pool, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = w.Shutdown(ctx)
	})
	return w
}

// awaitState waits until the job is in one of states and answers it.
func awaitState(t *testing.T, pool *pgxpool.Pool, id string, states ...pipeline.State) *pipeline.RunDetail {
	t.Helper()
	admin := pipeline.NewAdmin(pool)
	deadline := time.Now().Add(20 * time.Second)
	for {
		d, err := admin.Show(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(states, d.State) {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s is %s after 20s; want one of %v", id, d.State, states)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func stepOf(d *pipeline.RunDetail, name string) pipeline.StepDetail {
	for _, s := range d.Steps {
		if s.Name == name {
			return s
		}
	}
	return pipeline.StepDetail{}
}

func kinds(d *pipeline.RunDetail) []string {
	var out []string
	for _, e := range d.Journal {
		out = append(out, e.Kind)
	}
	return out
}

// logRecorder is a slog handler that keeps the messages (event names) logged.
type logRecorder struct {
	mu     sync.Mutex
	events []string
}

func (r *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *logRecorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, rec.Message)
	return nil
}
func (r *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *logRecorder) WithGroup(string) slog.Handler      { return r }

func (r *logRecorder) has(event string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.events, event)
}

func (r *logRecorder) await(t *testing.T, event string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !r.has(event) {
		if time.Now().After(deadline) {
			r.mu.Lock()
			seen := map[string]int{}
			for _, e := range r.events {
				seen[e]++
			}
			r.mu.Unlock()
			t.Fatalf("event %s was not logged in 20 s; logged: %v", event, seen)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type noInput struct {
	K string `json:"k"`
}

func keyK(in noInput) string { return in.K }

// awaitStat waits until a worker counter reaches n.
func awaitStat(t *testing.T, counter func() int64, n int64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for counter() < n {
		if time.Now().After(deadline) {
			t.Fatalf("counter at %d after 20s; want %d", counter(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *logRecorder) count(event string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e == event {
			n++
		}
	}
	return n
}
