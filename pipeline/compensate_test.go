package pipeline_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/internal/simhook"
	"github.com/pipekit/pipe/pipeline"
)

// checkout charges, reserves and ships; ship always fails. undone records
// the compensators in the order they ran.
type checkout struct {
	mu       sync.Mutex
	undone   []string
	attempts []int
	failUndo map[string]int // compensator failures left, per step
}

func (c *checkout) record(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.undone = append(c.undone, s)
}

func (c *checkout) failing(step string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failUndo[step] > 0 {
		c.failUndo[step]--
		return true
	}
	return false
}

func (c *checkout) job(attempts int) *pipeline.Job[noInput, int] {
	undo := func(step string) func(context.Context, string) error {
		return func(ctx context.Context, id string) error {
			if c.failing(step) {
				return errors.New("the refund API is down")
			}
			c.record(step + ":" + id)
			return nil
		}
	}
	return pipeline.MustJob("checkout", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		c.mu.Lock()
		c.attempts = append(c.attempts, run.Attempt)
		c.mu.Unlock()
		if _, err := pipeline.StepWithCompensation(ctx, "charge", func(context.Context) (string, error) { return "ch_1", nil }, undo("charge")); err != nil {
			return 0, err
		}
		if _, err := pipeline.StepWithCompensation(ctx, "reserve", func(context.Context) (string, error) { return "rs_1", nil }, undo("reserve")); err != nil {
			return 0, err
		}
		_, err := pipeline.Step(ctx, "ship", func(context.Context) (int, error) { return 0, errors.New("the carrier refused") })
		return 0, err
	}, pipeline.JobOptions[noInput, int]{Compensates: true, Retry: &pipeline.Retry{Attempts: attempts, Delay: time.Millisecond, MaxDelay: 5 * time.Millisecond}})
}

func TestCompensatorsRunLastInFirstOutOnlyWhenTheRunFailsForGood(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	c := &checkout{}
	j := c.job(2)
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	d := awaitState(t, pool, res.ID, "dead")
	if !slices.Equal(c.undone, []string{"reserve:rs_1", "charge:ch_1"}) {
		t.Fatalf("compensators ran %v; want reserve then charge, once each", c.undone)
	}
	if !slices.Equal(c.attempts, []int{1, 2}) {
		t.Fatalf("attempts %v: the retry must not unwind", c.attempts)
	}
	if d.LastError.Message != "the carrier refused" || d.MaxAttempts != 2+pipeline.UnwindMargin {
		t.Fatalf("the row's error is the original failure: %+v (max attempts %d)", d.LastError, d.MaxAttempts)
	}
	var order []string
	for _, s := range d.Steps {
		order = append(order, s.Name)
	}
	if !slices.Equal(order, []string{"charge", "reserve", "ship", "unwinding", "compensate:reserve", "compensate:charge"}) {
		t.Fatalf("steps %v", order)
	}
}

func TestAFailedUnwindResumesOnTheNextAttempt(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	c := &checkout{failUndo: map[string]int{"charge": 1}}
	j := c.job(1)
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	d := awaitState(t, pool, res.ID, "dead")
	if !slices.Equal(c.undone, []string{"reserve:rs_1", "charge:ch_1"}) {
		t.Fatalf("compensators %v; reserve must not run twice", c.undone)
	}
	if d.Attempt != 2 || d.LastError.Message != "the carrier refused" {
		t.Fatalf("attempt %d error %+v", d.Attempt, d.LastError)
	}
}

func TestACompensatorThatKeepsFailingIsNamed(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	c := &checkout{failUndo: map[string]int{"reserve": 100}}
	j := c.job(1)
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.JobCompensationFailed) || !strings.Contains(d.LastError.Message, "step reserve") {
		t.Fatalf("%+v", d.LastError)
	}
	if d.Attempt != 1+pipeline.UnwindMargin || len(c.undone) != 0 {
		t.Fatalf("attempt %d undone %v", d.Attempt, c.undone)
	}
}

func TestCompensateNeedsTheJobToDeclareIt(t *testing.T) {
	d := runOnce(t, "undeclared-compensation", func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		return pipeline.StepWithCompensation(ctx, "charge", func(context.Context) (int, error) { return 1, nil },
			func(context.Context, int) error { return nil })
	}, pipeline.JobOptions[noInput, int]{Retry: fastRetry})
	if d.LastError.Code != string(errcode.JobDeclarationInvalid) || d.Attempt != 1 {
		t.Fatalf("%+v", d.LastError)
	}
}

// Killed during the unwind (after one compensator), the run is claimed again
// once its lease lapses and the unwind resumes where it stopped.
func TestACrashDuringTheUnwindIsResumed(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	c := &checkout{}
	j := c.job(1)
	var killed sync.Once
	simhook.Set("unwinder", &simhook.Hooks{AfterStep: func(job, step string) bool {
		kill := false
		if step == "compensate:reserve" {
			killed.Do(func() { kill = true })
		}
		return kill
	}})
	t.Cleanup(func() { simhook.Clear("unwinder") })
	startWorker(t, pool, pipeline.WorkerConfig{ID: "unwinder", Lease: 300 * time.Millisecond, Heartbeat: time.Hour}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	d := awaitState(t, pool, res.ID, "dead")
	if !slices.Equal(c.undone, []string{"reserve:rs_1", "charge:ch_1"}) {
		t.Fatalf("compensators %v: each must run once across the crash", c.undone)
	}
	if d.Attempt != 2 || d.LastError.Message != "the carrier refused" || !containsKind(d, "lease.lapsed") {
		t.Fatalf("attempt %d error %+v journal %v", d.Attempt, d.LastError, kinds(d))
	}
}

// Killed on its final forward attempt, the run is re-offered inside the
// unwind margin and unwinds instead of running forward again.
func TestACrashOnTheFinalAttemptUnwinds(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	c := &checkout{}
	j := c.job(1)
	var killed sync.Once
	simhook.Set("final-crash", &simhook.Hooks{AfterStep: func(job, step string) bool {
		kill := false
		if step == "reserve" {
			killed.Do(func() { kill = true })
		}
		return kill
	}})
	t.Cleanup(func() { simhook.Clear("final-crash") })
	startWorker(t, pool, pipeline.WorkerConfig{ID: "final-crash", Lease: 300 * time.Millisecond, Heartbeat: time.Hour}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "o-1"})
	d := awaitState(t, pool, res.ID, "dead")
	if !slices.Equal(c.undone, []string{"reserve:rs_1", "charge:ch_1"}) || !slices.Equal(c.attempts, []int{1, 2}) {
		t.Fatalf("compensators %v attempts %v", c.undone, c.attempts)
	}
	if d.LastError.Code != string(errcode.JobLeaseLost) || stepOf(d, "ship").Executions != 0 {
		t.Fatalf("error %+v; ship ran %d times (the unwind must not run forward)", d.LastError, stepOf(d, "ship").Executions)
	}
}
