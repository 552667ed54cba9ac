package pipeline_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// With a one-minute poll, only the enqueue's notification can start the run
// within the test: the claim pass that ran it was the wake's.
func TestEnqueueWakesAnIdleWorker(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("woken")
	j.SetWakeThrottle(time.Millisecond)
	logs := &logRecorder{}
	w := startWorker(t, pool, pipeline.WorkerConfig{PollInterval: time.Minute, IdlePollMax: time.Minute, Logger: slog.New(logs)}, j)
	logs.await(t, "jobs.wake.live")
	awaitStat(t, w.Stats().Passes.Load, 1)
	before := w.Stats().Passes.Load()
	res, err := j.Enqueue(ctx, pool, payload{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, "done")
	if after := w.Stats().Passes.Load(); after != before+1 {
		t.Fatalf("passes %d -> %d; the wake should have caused exactly one", before, after)
	}
}

// A requeue carries the wake too.
func TestRequeueWakesAnIdleWorker(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("requeue-woken")
	res, _ := j.Enqueue(ctx, pool, payload{K: "a"})
	if err := pipeline.NewAdmin(pool).Cancel(ctx, res.ID, "test"); err != nil {
		t.Fatal(err)
	}
	logs := &logRecorder{}
	w := startWorker(t, pool, pipeline.WorkerConfig{PollInterval: time.Minute, IdlePollMax: time.Minute, Logger: slog.New(logs)}, j)
	logs.await(t, "jobs.wake.live")
	awaitStat(t, w.Stats().Passes.Load, 1)
	if err := pipeline.NewAdmin(pool).Requeue(ctx, res.ID); err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, "done")
}

// The wake throttle bounds notifications per queue, whichever job enqueues:
// two jobs of one queue send one notification inside the window, a job of
// another queue its own.
func TestTheWakeThrottleIsPerQueue(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	conn := fixtures.SessionConn(t, pool)
	if _, err := conn.Exec(ctx, "listen pipe_jobs"); err != nil {
		t.Fatal(err)
	}
	opts := func(q string) pipeline.JobOptions[payload, struct{}] {
		return pipeline.JobOptions[payload, struct{}]{Queue: q}
	}
	noop := func(context.Context, *pipeline.Run[payload]) (struct{}, error) { return struct{}{}, nil }
	a := pipeline.MustJob("throttle-a", payloadKey, noop, opts("throttled-shared"))
	b := pipeline.MustJob("throttle-b", payloadKey, noop, opts("throttled-shared"))
	c := pipeline.MustJob("throttle-c", payloadKey, noop, opts("throttled-other"))
	a.SetWakeThrottle(time.Hour)
	c.SetWakeThrottle(time.Hour)
	for _, enqueue := range []func() error{
		func() error { _, err := a.Enqueue(ctx, pool, payload{K: "1"}); return err },
		func() error { _, err := b.Enqueue(ctx, pool, payload{K: "2"}); return err },
		func() error { _, err := a.Enqueue(ctx, pool, payload{K: "3"}); return err },
		func() error { _, err := c.Enqueue(ctx, pool, payload{K: "4"}); return err },
	} {
		if err := enqueue(); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]int{}
	for {
		wctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		if err != nil {
			break
		}
		if !strings.HasPrefix(n.Payload, "probe:") {
			got[n.Payload]++
		}
	}
	if got["throttled-shared"] != 1 || got["throttled-other"] != 1 || len(got) != 2 {
		t.Fatalf("notifications by queue: %v; want one per queue", got)
	}
}
