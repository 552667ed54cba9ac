package pipeline_test

import (
	"context"
	"log/slog"
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
