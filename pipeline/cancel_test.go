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

func TestTimeoutCancelsTheBodyBeforeFailingTheAttempt(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	causes := make(chan error, 1)
	stepErr := make(chan error, 1)
	j := pipeline.MustJob("times-out", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		<-ctx.Done()
		causes <- context.Cause(ctx)
		_, err := pipeline.Step(ctx, "after-cancel", func(context.Context) (int, error) { return 1, nil })
		stepErr <- err
		return 0, ctx.Err()
	}, pipeline.JobOptions[noInput, int]{Timeout: 50 * time.Millisecond, Retry: &pipeline.Retry{Attempts: 1}})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	d := awaitState(t, pool, res.ID, "dead")
	if cause := <-causes; !errors.Is(cause, errcode.JobTimeout) {
		t.Fatalf("the body's context cause = %v; want X_JOB_TIMEOUT", cause)
	}
	if err := <-stepErr; !errors.Is(err, errcode.Aborted) {
		t.Fatalf("a step past the cancel = %v; want X_ABORTED", err)
	}
	if d.LastError.Code != string(errcode.JobTimeout) || len(d.Steps) != 0 {
		t.Fatalf("last error %+v steps %+v", d.LastError, d.Steps)
	}
}

func TestABodyIgnoringItsTimeoutIsAbandonedAndNamed(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	release := make(chan struct{})
	j := pipeline.MustJob("ignores-timeout", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		<-release
		return 1, nil
	}, pipeline.JobOptions[noInput, int]{Timeout: 20 * time.Millisecond, Retry: &pipeline.Retry{Attempts: 1}})
	logs := &logRecorder{}
	startWorker(t, pool, pipeline.WorkerConfig{TimeoutGrace: 10 * time.Millisecond, Logger: slog.New(logs)}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.JobTimeout) {
		t.Fatalf("%+v", d.LastError)
	}
	close(release)
	logs.await(t, "jobs.timeout.abandoned")
	if d := awaitState(t, pool, res.ID, "dead"); d.Result != nil {
		t.Fatalf("an abandoned body's result landed: %s", d.Result)
	}
}

func TestDrainInterruptsWithTheAttemptUncounted(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started := make(chan struct{}, 1)
	causes := make(chan error, 1)
	j := pipeline.MustJob("drained", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if _, err := pipeline.Step(ctx, "before", func(context.Context) (int, error) { return 1, nil }); err != nil {
			return 0, err
		}
		started <- struct{}{}
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return 0, errors.New("the app's own error for a child the shutdown killed")
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 1}})
	w := startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	<-started
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := w.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	if cause := <-causes; !errors.Is(cause, errcode.Draining) {
		t.Fatalf("cause %v; want X_DRAINING", cause)
	}
	d := awaitState(t, pool, res.ID, "ready")
	if d.Attempt != 0 || d.LastError != nil || time.Until(d.RunAt) > 0 {
		t.Fatalf("interrupted row: attempt %d error %+v run at %v", d.Attempt, d.LastError, d.RunAt)
	}
	// The next worker resumes it on the same attempt budget: attempts 1 survives the rollout.
	var ran int
	j2 := pipeline.MustJob("drained", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		_, err := pipeline.Step(ctx, "before", func(context.Context) (int, error) { ran++; return 1, nil })
		return run.Attempt, err
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 1}})
	startWorker(t, pool, pipeline.WorkerConfig{}, j2)
	d = awaitState(t, pool, res.ID, "done")
	if ran != 0 || string(d.Result) != "1" {
		t.Fatalf("completed step re-ran %d times; result %s", ran, d.Result)
	}
}

func TestStopWaitsForHeldWorkWithoutCancelling(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started := make(chan struct{})
	release := make(chan struct{})
	j := pipeline.MustJob("stop-waits", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		close(started)
		<-release
		return 7, ctx.Err()
	})
	w := startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	<-started
	stopped := make(chan error, 1)
	go func() { stopped <- w.Stop(ctx) }()
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned while work was held: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if d := awaitState(t, pool, res.ID, "done"); string(d.Result) != "7" {
		t.Fatalf("result %s", d.Result)
	}
}

// A SIGTERM during a manual Stop drains it: the Stop waiting on a body
// (with no deadline of its own) adopts the Shutdown's, the body hears
// X_DRAINING, its run goes back to ready with the attempt uncounted, and
// both calls return.
func TestAShutdownDuringAStopDrainsIt(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started := make(chan struct{}, 1)
	causes := make(chan error, 1)
	j := pipeline.MustJob("stop-then-drain", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		started <- struct{}{}
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return 0, ctx.Err()
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 1}})
	w := startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	<-started
	stopped := make(chan error, 1)
	go func() { stopped <- w.Stop(ctx) }()
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned while a body was held: %v", err)
	case cause := <-causes:
		t.Fatalf("Stop cancelled the body: %v", cause)
	case <-time.After(100 * time.Millisecond):
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := w.Shutdown(sctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	select {
	case cause := <-causes:
		if !errors.Is(cause, errcode.Draining) {
			t.Fatalf("the body heard %v; want X_DRAINING", cause)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the Shutdown did not reach the body the Stop waited on")
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatalf("Stop: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not return after the drain")
	}
	if d := awaitState(t, pool, res.ID, "ready"); d.Attempt != 0 || d.LastError != nil {
		t.Fatalf("the drained run: attempt %d, error %+v; want ready on an uncounted attempt", d.Attempt, d.LastError)
	}
}

// A Stop whose deadline passes abandons the body it waited on; what that body
// does afterwards writes nothing.
func TestAnAbandonedBodyWritesNothingAfterStop(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started, release, stepErr := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	j := pipeline.MustJob("abandoned", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		close(started)
		<-release
		_, err := pipeline.Step(ctx, "late", func(context.Context) (int, error) { return 1, nil })
		stepErr <- err
		return 0, err
	})
	w := startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	<-started
	sctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := w.Stop(sctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Stop = %v; want its deadline", err)
	}
	close(release)
	if err := <-stepErr; !errors.Is(err, errcode.Aborted) {
		t.Fatalf("the abandoned body's step = %v; want X_ABORTED", err)
	}
	if d := awaitState(t, pool, res.ID, "running"); len(d.Steps) != 0 {
		t.Fatalf("an abandoned body wrote steps: %+v", d.Steps)
	}
}

// An operator's cancel reaches a running body at once (the worker is told
// by a notification) as X_JOB_CANCELLED, and counts as a cancel — not as a
// lost lease, the metric to alert on.
func TestACancelReachesTheRunningBodyAtOnce(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  pipeline.WorkerConfig
	}{
		{"notified", pipeline.WorkerConfig{Lease: time.Hour, Heartbeat: time.Hour}},
		{"at the heartbeat without LISTEN", pipeline.WorkerConfig{NoWake: true, Lease: 3 * time.Second, Heartbeat: 50 * time.Millisecond}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			pool := fixtures.DB(t)
			started := make(chan struct{})
			causes := make(chan error, 1)
			j := pipeline.MustJob("cancelled-while-running", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
				close(started)
				<-ctx.Done()
				causes <- context.Cause(ctx)
				_, err := pipeline.Step(ctx, "after", func(context.Context) (int, error) { return 1, nil })
				return 0, err
			})
			logs := &logRecorder{}
			c.cfg.Logger = slog.New(logs)
			w := startWorker(t, pool, c.cfg, j)
			if !c.cfg.NoWake {
				logs.await(t, "jobs.wake.live")
			}
			res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
			<-started
			if err := pipeline.NewAdmin(pool).Cancel(ctx, res.ID, "test"); err != nil {
				t.Fatal(err)
			}
			select {
			case cause := <-causes:
				if !errors.Is(cause, errcode.JobCancelled) {
					t.Fatalf("the body's cause is %v", cause)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the body did not hear the cancel")
			}
			awaitStat(t, w.Stats().Cancelled.Load, 1)
			d := awaitState(t, pool, res.ID, "cancelled")
			if w.Stats().LeasesLost.Load() != 0 || logs.has("jobs.lease.lost") || logs.has("jobs.settle.unowned") || len(d.Steps) != 0 {
				t.Fatalf("lost %d, logs %v, steps %+v", w.Stats().LeasesLost.Load(), logs.events, d.Steps)
			}
			if got := w.Outcomes()[pipeline.DefaultQueue]["cancelled"]; got != 1 {
				t.Fatalf("outcomes %v", w.Outcomes())
			}
		})
	}
}
