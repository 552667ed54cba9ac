package pipeline_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type approval struct {
	OrderID string `json:"orderId"`
	By      string `json:"by"`
}

func (a approval) Validate() error {
	if a.By == "" {
		return errors.New("by is required")
	}
	return nil
}

func approvalJob(timeout time.Duration) *pipeline.Job[noInput, string] {
	return pipeline.MustJob("await-approval", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (string, error) {
		a, ok, err := pipeline.WaitForEvent[approval](ctx, "approved", "order.approved", map[string]string{"orderId": run.Input.K}, timeout)
		if err != nil || !ok {
			return "timed out", err
		}
		return a.By, nil
	}, pipeline.JobOptions[noInput, string]{Retry: fastRetry})
}

func TestPublishedEventWakesTheWaitingRun(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := approvalJob(time.Hour)
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	d := awaitState(t, pool, res.ID, "suspended")
	if time.Until(d.RunAt) < 10*time.Minute {
		t.Fatalf("the backstop poll should be long: next look in %v", time.Until(d.RunAt))
	}
	// Rolled back: nobody wakes.
	tx, _ := pool.Begin(ctx)
	if _, err := pipeline.PublishEvent(ctx, tx, "order.approved", approval{OrderID: "o-1", By: "ghost"}); err != nil {
		t.Fatal(err)
	}
	_ = tx.Rollback(ctx)
	// Another order's event does not match. The wake is in the publishing
	// statement itself, so run_at is final once PublishEvent returns.
	if _, err := pipeline.PublishEvent(ctx, pool, "order.approved", approval{OrderID: "o-2", By: "other"}); err != nil {
		t.Fatal(err)
	}
	if d := awaitState(t, pool, res.ID, "suspended"); time.Until(d.RunAt) < 10*time.Minute {
		t.Fatalf("a rolled-back or unmatched event woke the run")
	}
	if _, err := pipeline.PublishEvent(ctx, pool, "order.approved", approval{OrderID: "o-1", By: "ana"}); err != nil {
		t.Fatal(err)
	}
	d = awaitState(t, pool, res.ID, "done")
	if string(d.Result) != `"ana"` || d.Attempt != 1 {
		t.Fatalf("result %s attempt %d", d.Result, d.Attempt)
	}
}

func TestWaitTimesOut(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := approvalJob(200 * time.Millisecond)
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	d := awaitState(t, pool, res.ID, "done")
	if string(d.Result) != `"timed out"` {
		t.Fatalf("result %s", d.Result)
	}
}

func TestARefusedPayloadIsTerminal(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := approvalJob(time.Hour)
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	awaitState(t, pool, res.ID, "suspended")
	if _, err := pipeline.PublishEvent(ctx, pool, "order.approved", map[string]string{"orderId": "o-1"}); err != nil {
		t.Fatal(err)
	}
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.JobEventInvalid) || d.Attempt != 1 {
		t.Fatalf("%+v attempt %d", d.LastError, d.Attempt)
	}
}
