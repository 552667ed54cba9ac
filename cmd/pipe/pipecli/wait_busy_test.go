package pipecli

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type keyedIn struct {
	Key string `json:"key"`
	N   int    `json:"n"`
}

// lockedBuffer is a buffer the command's worker and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A run deferred because another run holds its concurrency key (here
// under another worker, as a fleet's would) is said to be deferred, and
// why (and when it is next looked at, while it waits for that); it runs
// once the key is free.
func TestWaitSaysItsRunIsDeferredByABusyKey(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		pool := fixtures.DB(t)
		release := make(chan struct{})
		started := make(chan struct{}, 1)
		job := pipeline.MustJob("test.keyed", func(in keyedIn) string { return in.Key + "/" + string(rune('0'+in.N)) },
			func(ctx context.Context, r *pipeline.Run[keyedIn]) (struct{}, error) {
				if r.Input.N == 1 {
					started <- struct{}{}
					<-release
				}
				return struct{}{}, nil
			}, pipeline.JobOptions[keyedIn, struct{}]{Concurrency: &pipeline.Concurrency[keyedIn]{Limit: 1,
				Key: func(in keyedIn) string { return in.Key }, WhenBusy: pipeline.Wait}})
		startFleetWorker(t, pool, job)
		if _, err := job.Enqueue(t.Context(), pool, keyedIn{Key: "k", N: 1}); err != nil {
			t.Fatal(err)
		}
		<-started
		var errOut lockedBuffer
		a := &app{stderr: &errOut, json: asJSON}
		done := make(chan error, 1)
		go func() {
			_, _, err := runHere(t.Context(), a, pool, job, keyedIn{Key: "k", N: 2}, newWaitReporter(a, pipeline.NewAdmin(pool), nil, 1))
			done <- err
		}()
		want := "deferred, its attempt uncounted: another run holds its concurrency key"
		if asJSON {
			want = `{"event":"deferred.busy",`
		}
		deadline := time.Now().Add(30 * time.Second)
		for !strings.Contains(errOut.String(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("no deferral said in 30 s (json %v):\n%s", asJSON, errOut.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatalf("the deferred run, once the key was free: %v\n%s", err, errOut.String())
		}
	}
}

// startFleetWorker starts a worker over job standing for another process
// of the fleet.
func startFleetWorker(t *testing.T, pool *pgxpool.Pool, job pipeline.Registrable) {
	t.Helper()
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, PollInterval: 10 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler), ListenConfig: fixtures.ListenConfig(t, pool)})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Shutdown(ctx)
	})
}
