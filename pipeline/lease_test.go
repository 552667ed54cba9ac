package pipeline_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A worker whose lease lapsed cannot settle the run another claim took.
func TestALapsedLeasesLateSettleIsRefused(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started, release := make(chan struct{}), make(chan struct{})
	slow := pipeline.MustJob("lapse", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (string, error) {
		close(started)
		<-release
		return "late", nil
	})
	fast := pipeline.MustJob("lapse", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (string, error) {
		return "second", nil
	})
	logsA := &logRecorder{}
	a := startWorker(t, pool, pipeline.WorkerConfig{ID: "a", Queues: map[string]int{"default": 1}, Lease: 300 * time.Millisecond, Heartbeat: time.Hour, Logger: slog.New(logsA)}, slow)
	res, _ := slow.Enqueue(ctx, pool, noInput{K: "x"})
	<-started
	startWorker(t, pool, pipeline.WorkerConfig{ID: "b"}, fast)
	d := awaitState(t, pool, res.ID, "done")
	if string(d.Result) != `"second"` || d.Attempt != 2 {
		t.Fatalf("result %s attempt %d", d.Result, d.Attempt)
	}
	close(release)
	logsA.await(t, "jobs.settle.unowned")
	if a.Stats().Unowned.Load() != 1 || a.Stats().Completed.Load() != 0 {
		t.Fatalf("worker a: unowned %d completed %d", a.Stats().Unowned.Load(), a.Stats().Completed.Load())
	}
	if d := awaitState(t, pool, res.ID, "done"); string(d.Result) != `"second"` {
		t.Fatalf("the late settle overwrote the result: %s", d.Result)
	}
}

// A renewal that finds the claim moved on cancels the body with X_JOB_LEASE_LOST.
func TestLostLeaseCancelsTheBody(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started, causes := make(chan struct{}), make(chan error, 1)
	j := pipeline.MustJob("lease-lost", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		close(started)
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return 0, ctx.Err()
	})
	logs := &logRecorder{}
	startWorker(t, pool, pipeline.WorkerConfig{Lease: 3 * time.Second, Heartbeat: 20 * time.Millisecond, Logger: slog.New(logs)}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "x"})
	<-started
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `update pipe.jobs set claims = claims + 1 where id = $1`, res.ID); err != nil {
		t.Fatal(err)
	}
	if cause := <-causes; !errors.Is(cause, errcode.JobLeaseLost) {
		t.Fatalf("cause %v", cause)
	}
	logs.await(t, "jobs.lease.lost")
}

// A lease that lapses on the final attempt is settled dead by the next claim,
// and the job's OnSettled hook hears it.
func TestFinalAttemptLapseIsBuriedByTheNextClaimAndHeard(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	heard := make(chan pipeline.Settled[noInput, int], 2)
	hang := pipeline.MustJob("lapse-final", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		close(started)
		<-release
		return 0, nil
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 1},
		OnSettled: func(_ context.Context, s pipeline.Settled[noInput, int]) error { heard <- s; return nil }})
	startWorker(t, pool, pipeline.WorkerConfig{ID: "a", Queues: map[string]int{"default": 1}, Lease: 200 * time.Millisecond, Heartbeat: time.Hour}, hang)
	res, _ := hang.Enqueue(ctx, pool, noInput{K: "x"})
	<-started
	logs := &logRecorder{}
	b := startWorker(t, pool, pipeline.WorkerConfig{ID: "b", Logger: slog.New(logs)}, hang)
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.JobLeaseLost) || d.Attempt != 1 {
		t.Fatalf("last error %+v attempt %d", d.LastError, d.Attempt)
	}
	logs.await(t, "jobs.claim.exhausted")
	if b.Stats().DeadLettered.Load() != 1 {
		t.Fatalf("dead-lettered %d", b.Stats().DeadLettered.Load())
	}
	// OnSettled hears the burial once, with the input and the lease's error.
	select {
	case s := <-heard:
		if s.Outcome != pipeline.OutcomeDeadLettered || s.ID != res.ID || s.Input == nil || s.Input.K != "x" ||
			s.Error == nil || s.Error.Code != string(errcode.JobLeaseLost) {
			t.Fatalf("OnSettled heard %+v", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("OnSettled did not hear the run the claim buried")
	}
	select {
	case s := <-heard:
		t.Fatalf("OnSettled heard the burial twice: %+v", s)
	case <-time.After(200 * time.Millisecond):
	}
}
