package pipeline_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A run dead in its unwind (a compensator kept failing) and retried, as
// `pipe jobs retry` does once the compensator is fixed, continues the
// unwind where it stopped and never runs forward: no step runs again, the
// remaining compensators run once each, and the run is buried with its
// original failure.
func TestARetryOfARunDeadInItsUnwindContinuesTheUnwind(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	c := &checkout{failUndo: map[string]int{"reserve": 100}}
	j := c.job(1)
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.JobCompensationFailed) || len(c.undone) != 0 {
		t.Fatalf("before the retry: %+v, undone %v", d.LastError, c.undone)
	}
	c.mu.Lock()
	c.failUndo["reserve"] = 0 // the compensator is fixed
	forward := len(c.attempts)
	c.mu.Unlock()
	if err := pipeline.NewAdmin(pool).Requeue(ctx, res.ID); err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, "ready", "running", "dead")
	d = awaitState(t, pool, res.ID, "dead")
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Equal(c.undone, []string{"reserve:rs_1", "charge:ch_1"}) {
		t.Fatalf("compensators after the retry: %v; want reserve then charge, once each", c.undone)
	}
	if d.LastError.Message != "the carrier refused" {
		t.Fatalf("the retried unwind ended with %+v; want the original failure", d.LastError)
	}
	for _, step := range []string{"charge", "reserve", "ship"} {
		if n := stepOf(d, step).Executions; n != 1 {
			t.Fatalf("step %s ran %d times; the retry must not run forward (body entered %d times before, %d after)", step, n, forward, len(c.attempts))
		}
	}
}

// A once-step with a compensator whose outcome is unknown (its attempt's
// lease lapsed mid-step) stops the unwind: whether to undo it cannot be
// known, so no compensator runs and the run is buried with
// X_JOB_COMPENSATION_FAILED naming the step.
func TestAnUnknownOnceStepWithACompensatorStopsTheUnwind(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var refunds, reserves atomic.Int32
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	j := pipeline.MustJob("unknown-once", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if _, err := pipeline.StepWithCompensation(ctx, "charge", func(context.Context) (string, error) { return "ch_1", nil },
			func(context.Context, string) error { refunds.Add(1); return nil }); err != nil {
			return 0, err
		}
		_, err := pipeline.StepWithCompensation(ctx, "reserve", func(ctx context.Context) (string, error) {
			reserves.Add(1)
			<-release // the attempt's lease lapses while the step runs
			return "", errors.New("never answered")
		}, func(context.Context, string) error { return nil }, pipeline.Once())
		return 0, err
	}, pipeline.JobOptions[noInput, int]{Compensates: true, Retry: &pipeline.Retry{Attempts: 3, Delay: time.Millisecond}})
	startWorker(t, pool, pipeline.WorkerConfig{ID: "unknown-once", Lease: 300 * time.Millisecond, Heartbeat: time.Hour}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.JobCompensationFailed) || !strings.Contains(d.LastError.Message, "step reserve") {
		t.Fatalf("the run ended with %+v; want X_JOB_COMPENSATION_FAILED naming step reserve", d.LastError)
	}
	if n := refunds.Load(); n != 0 {
		t.Fatalf("charge was compensated %d times; an unknown once-step must stop the unwind", n)
	}
	if n := reserves.Load(); n != 1 {
		t.Fatalf("the once-step ran %d times", n)
	}
}
