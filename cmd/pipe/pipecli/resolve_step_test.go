package pipecli_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/pipekit/pipe/pipeline"
)

// TestResolveStepThenRetry leaves a once-step started with no outcome (the
// run is cancelled while the step runs), resolves it as ran, and retries:
// the run finishes with the resolved output and the step's function never
// runs again.
func TestResolveStepThenRetry(t *testing.T) {
	t.Parallel()
	b := setup(t)
	entered, release := make(chan struct{}, 4), make(chan struct{})
	var calls atomic.Int32
	job := pipeline.MustJob("test.charge", func(in blockInput) string { return in.Key },
		func(ctx context.Context, run *pipeline.Run[blockInput]) (string, error) {
			return pipeline.Step(ctx, "charge", func(context.Context) (string, error) {
				calls.Add(1)
				entered <- struct{}{}
				<-release
				return "charged-by-fn", nil
			}, pipeline.Once())
		})
	res, err := job.Enqueue(t.Context(), b.pool, blockInput{Key: "order-1"})
	if err != nil {
		t.Fatal(err)
	}
	stop, done := b.startWorker(t, job)
	defer func() { stop(); <-done }()

	<-entered
	wantOK(t, b.pipe(t, "jobs", "cancel", res.ID))
	close(release)
	if d := b.waitSettled(t, res.ID); d.Steps[0].State != "started" {
		t.Fatalf("after the cancel the step is %s, want started", d.Steps[0].State)
	}

	wantError(t, b.pipe(t, "jobs", "resolve-step", res.ID, "nope", "--not-ran"), 1, "X_STEP_NOT_FOUND")
	wantOK(t, b.pipe(t, "jobs", "resolve-step", res.ID, "charge", "--ran", "--output", `"charged-by-hand"`))
	wantOK(t, b.pipe(t, "jobs", "retry", res.ID))

	d := b.waitSettled(t, res.ID)
	if d.State != "done" || string(d.Result) != `"charged-by-hand"` || calls.Load() != 1 {
		t.Fatalf("the retried run is %s with result %s after %d calls; want done, the resolved output, 1 call", d.State, d.Result, calls.Load())
	}
}
