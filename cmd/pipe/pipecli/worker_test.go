package pipecli_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
)

type blockInput struct {
	Key string `json:"key"`
}

// blockingJob answers a job whose body reports on started, then waits for
// release — or, when honourCtx, for its context to end.
func blockingJob(t *testing.T, honourCtx bool, started chan<- string, release <-chan struct{}) *pipeline.Job[blockInput, struct{}] {
	t.Helper()
	body := func(ctx context.Context, run *pipeline.Run[blockInput]) (struct{}, error) {
		started <- run.ID
		if honourCtx {
			<-ctx.Done()
			return struct{}{}, context.Cause(ctx)
		}
		<-release
		return struct{}{}, nil
	}
	return pipeline.MustJob("test.block", func(in blockInput) string { return in.Key }, body)
}

// startWorker runs `pipe worker` with job registered until the answered
// cancel is called; done delivers its result.
func (b *bundle) startWorker(t *testing.T, job pipeline.Registrable, args ...string) (cancel context.CancelFunc, done <-chan result) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	ch := make(chan result, 1)
	opts := pipecli.Options{Jobs: []pipeline.Registrable{job}}
	go func() { ch <- execute(ctx, opts, append([]string{"--database-url", b.url, "worker"}, args...)...) }()
	return cancel, ch
}

func TestWorkerDrainsOnStop(t *testing.T) {
	t.Parallel()
	b := setup(t)
	started := make(chan string, 1)
	job := blockingJob(t, true, started, nil)
	res, err := job.Enqueue(t.Context(), b.pool, blockInput{Key: "k1"})
	if err != nil {
		t.Fatal(err)
	}

	stop, done := b.startWorker(t, job, "--json", "--queue", "default=2", "--drain-timeout", "10s")
	if id := <-started; id != res.ID {
		t.Fatalf("the worker ran %s, want %s", id, res.ID)
	}
	stop()
	r := <-done
	wantOK(t, r)

	d := b.show(t, res.ID)
	if d.State != "ready" || d.Journal[len(d.Journal)-1].Kind != "interrupted" {
		t.Fatalf("after the drain the run is %s, last event %s; want ready, interrupted", d.State, d.Journal[len(d.Journal)-1].Kind)
	}
	var msgs []string
	for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		var rec struct {
			Msg string `json:"msg"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a --json log line is not JSON: %q", line)
		}
		msgs = append(msgs, rec.Msg)
	}
	for _, want := range []string{"jobs.worker.started", "pipe.worker.draining", "jobs.worker.stopped"} {
		if !strings.Contains(strings.Join(msgs, " "), want) {
			t.Fatalf("logs lack %s: %v", want, msgs)
		}
	}
}

func TestWorkerDrainTimeoutAbandonsStuckBody(t *testing.T) {
	t.Parallel()
	b := setup(t)
	started, release := make(chan string, 1), make(chan struct{})
	t.Cleanup(func() { close(release) })
	job := blockingJob(t, false, started, release)
	if _, err := job.Enqueue(t.Context(), b.pool, blockInput{Key: "k1"}); err != nil {
		t.Fatal(err)
	}

	stop, done := b.startWorker(t, job, "--drain-timeout", "50ms")
	<-started
	stop()
	r := <-done
	if r.code != 1 || !strings.Contains(r.stderr, "error X_DRAINING: ") {
		t.Fatalf("exit %d, want 1 with X_DRAINING\nstderr:\n%s", r.code, r.stderr)
	}
}

func TestWorkerFlagsAndJobs(t *testing.T) {
	t.Parallel()
	const nowhere = "postgres://nobody@127.0.0.1:1/none?connect_timeout=1"
	job := blockingJob(t, true, nil, nil)
	withJob := pipecli.Options{Jobs: []pipeline.Registrable{job}}

	// The stock pipe runs its own jobs (pipe.import): it gets as far as
	// the database.
	r := execute(t.Context(), pipecli.Options{}, "--database-url", nowhere, "worker")
	wantError(t, r, 1, "X_POSTGRES_UNAVAILABLE")
	for _, bad := range [][]string{{"--queue", "default=x"}, {"--queue", "default=0"}, {"--queue", "=3"},
		{"--max-in-flight", "-1"}, {"--max-in-flight-per-tenant", "-2"}, {"--drain-timeout", "-1s"}, {"--drain-timeout", "soon"}} {
		r := execute(t.Context(), withJob, append([]string{"--database-url", nowhere, "worker"}, bad...)...)
		wantError(t, r, 2, "X_CONFIG_INVALID")
	}
}

// Without --queue the worker serves the queues of WORKER_QUEUES (name=N,
// or a bare name for 100 slots), as the reference specification's worker
// role does; a malformed one is a usage error naming it.
func TestWorkerQueuesFromTheEnvironment(t *testing.T) {
	b := setup(t)
	job := blockingJob(t, true, nil, nil)
	withJob := pipecli.Options{Jobs: []pipeline.Registrable{job}}
	t.Setenv("WORKER_QUEUES", "default=3,bulk=x")
	r := execute(t.Context(), withJob, "--database-url", b.url, "worker")
	wantError(t, r, 2, "X_CONFIG_INVALID")
	if !strings.Contains(r.stderr, "WORKER_QUEUES") {
		t.Fatalf("the refusal does not name WORKER_QUEUES:\n%s", r.stderr)
	}
	t.Setenv("WORKER_QUEUES", " default=3, bulk ")
	stop, done := b.startWorker(t, job)
	var queues map[string]int
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		err := b.pool.QueryRow(t.Context(), `select queues from pipe.workers limit 1`).Scan(&queues)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no worker announced itself: %v", err)
		}
	}
	stop()
	wantOK(t, <-done)
	if len(queues) != 2 || queues["default"] != 3 || queues["bulk"] != pipeline.DefaultQueueSlots {
		t.Fatalf("the worker served %v; want default with 3 slots and bulk with %d", queues, pipeline.DefaultQueueSlots)
	}
}
