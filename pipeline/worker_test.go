package pipeline_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

var fastRetry = &pipeline.Retry{Attempts: 3, Delay: time.Millisecond, MaxDelay: 10 * time.Millisecond}

func TestRetryReplaysCompletedStepsAndRetriesOnlyTheFailedOne(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var provision, nudge atomic.Int32
	j := pipeline.MustJob("onboard", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (string, error) {
		org, err := pipeline.Step(ctx, "provision", func(context.Context) (string, error) {
			provision.Add(1)
			return "org-1", nil
		})
		if err != nil {
			return "", err
		}
		_, err = pipeline.Step(ctx, "nudge", func(context.Context) (int, error) {
			if nudge.Add(1) == 1 {
				return 0, errors.New("mail server down")
			}
			return 1, nil
		})
		return org, err
	}, pipeline.JobOptions[noInput, string]{Retry: fastRetry})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	d := awaitState(t, pool, res.ID, "done")
	if provision.Load() != 1 || nudge.Load() != 2 {
		t.Fatalf("provision ran %d, nudge %d; want 1 and 2", provision.Load(), nudge.Load())
	}
	if s := stepOf(d, "provision"); s.Executions != 1 || s.State != "completed" || string(s.Output) != `"org-1"` {
		t.Errorf("provision step %+v", s)
	}
	if s := stepOf(d, "nudge"); s.Executions != 2 || s.State != "completed" {
		t.Errorf("nudge step %+v", s)
	}
	if d.Attempt != 2 || string(d.Result) != `"org-1"` {
		t.Errorf("attempt %d result %s", d.Attempt, d.Result)
	}
	want := []string{"enqueued", "claimed", "step.completed", "step.failed", "attempt.failed", "claimed", "step.completed", "completed"}
	if got := kinds(d); !slices.Equal(got, want) {
		t.Errorf("journal %v\nwant    %v", got, want)
	}
}

func TestStepAnswersTheStoredFormOnTheFirstRunToo(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	got := make(chan time.Time, 1)
	at := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.FixedZone("x", 3600))
	j := pipeline.MustJob("stored-form", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (struct{}, error) {
		v, err := pipeline.Step(ctx, "when", func(context.Context) (time.Time, error) { return at, nil })
		got <- v
		return struct{}{}, err
	})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	awaitState(t, pool, res.ID, "done")
	if v := <-got; !v.Equal(at) {
		t.Fatalf("step answered %v; want %v", v, at)
	}
}

func TestTerminalCodeStopsAtOnce(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	errcode.Register("X_TEST_CARD_DECLINED", errcode.Terminal)
	var runs atomic.Int32
	j := pipeline.MustJob("terminal", keyK, func(context.Context, *pipeline.Run[noInput]) (struct{}, error) {
		runs.Add(1)
		return struct{}{}, errcode.New("X_TEST_CARD_DECLINED", "the card was declined")
	}, pipeline.JobOptions[noInput, struct{}]{Retry: fastRetry})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	d := awaitState(t, pool, res.ID, "dead")
	if runs.Load() != 1 || d.Attempt != 1 {
		t.Fatalf("ran %d times, attempt %d; a terminal code stops at once", runs.Load(), d.Attempt)
	}
	if d.LastError == nil || d.LastError.Code != "X_TEST_CARD_DECLINED" || !d.LastError.Terminal ||
		d.LastError.Message != "the card was declined — not retried: this code is classified terminal" {
		t.Fatalf("last error %+v", d.LastError)
	}
}

func TestExhaustedRunsAreDeadLetteredOrDropped(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	finals := make(chan bool, 10)
	body := func(_ context.Context, run *pipeline.Run[noInput]) (struct{}, error) {
		finals <- run.FinalAttempt
		return struct{}{}, errors.New("always")
	}
	dead := pipeline.MustJob("exhausted.dead", keyK, body, pipeline.JobOptions[noInput, struct{}]{Retry: fastRetry})
	dropped := pipeline.MustJob("exhausted.dropped", keyK, body, pipeline.JobOptions[noInput, struct{}]{
		Retry: &pipeline.Retry{Attempts: 2, Delay: time.Millisecond, NoDeadLetter: true}})
	w := startWorker(t, pool, pipeline.WorkerConfig{}, dead, dropped)
	a, _ := dead.Enqueue(ctx, pool, noInput{K: "a"})
	b, _ := dropped.Enqueue(ctx, pool, noInput{K: "b"})
	da := awaitState(t, pool, a.ID, "dead")
	db := awaitState(t, pool, b.ID, "failed")
	if da.Attempt != 3 || db.Attempt != 2 {
		t.Fatalf("attempts %d and %d; want 3 and 2", da.Attempt, db.Attempt)
	}
	if da.LastError.Message != "always" || da.FinishedAt == nil {
		t.Fatalf("dead row %+v", da)
	}
	var trues int
	for range 5 {
		if <-finals {
			trues++
		}
	}
	if trues != 2 {
		t.Fatalf("FinalAttempt was true %d times; want once per run", trues)
	}
	if w.Stats().DeadLettered.Load() != 1 || w.Stats().Failed.Load() != 1 || w.Stats().Retried.Load() != 3 {
		t.Fatalf("stats dead %d failed %d retried %d", w.Stats().DeadLettered.Load(), w.Stats().Failed.Load(), w.Stats().Retried.Load())
	}
}

func TestRetryAfterUsesTheRespondersDelayClamped(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	errcode.Register("X_TEST_THROTTLED", errcode.RetryAfter)
	j := pipeline.MustJob("retry-after", keyK, func(context.Context, *pipeline.Run[noInput]) (struct{}, error) {
		return struct{}{}, errcode.New("X_TEST_THROTTLED", "slow down").WithRetryAfter(7200)
	}, pipeline.JobOptions[noInput, struct{}]{Retry: &pipeline.Retry{Attempts: 3, Delay: time.Millisecond, MaxDelay: 90 * time.Second}})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	d := awaitState(t, pool, res.ID, "ready")
	for d.Attempt == 0 {
		d = awaitState(t, pool, res.ID, "ready")
	}
	wait := time.Until(*d.NextRetryAt)
	if wait < 80*time.Second || wait > 91*time.Second {
		t.Fatalf("next retry in %v; want the 2h retry-after clamped to 90s", wait)
	}
}

func TestInputThatDoesNotDecodeIsTerminal(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := pipeline.MustJob("bad-input", func(in int) string { return "k" }, func(context.Context, *pipeline.Run[int]) (int, error) {
		return 0, nil
	}, pipeline.JobOptions[int, int]{Retry: fastRetry})
	res, _ := j.Enqueue(ctx, pool, 1)
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `update pipe.jobs set input = '"not a number"' where id = $1`, res.ID); err != nil {
		t.Fatal(err)
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.JobInputInvalid) || d.Attempt != 1 {
		t.Fatalf("%+v", d.LastError)
	}
}

// A panic is retried, not buried: X_JOB_PANICKED names the panic's type and
// the line that panicked, never the panic's value (which may hold the input).
func TestAPanickingBodyIsRetriedNamingWhereItPanicked(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var calls atomic.Int32
	j := pipeline.MustJob("panics", keyK, func(_ context.Context, run *pipeline.Run[noInput]) (int, error) {
		if calls.Add(1) == 1 {
			panic("secret-" + run.Input.K)
		}
		var s []int
		return s[run.Attempt], nil // index out of range: a runtime panic
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: time.Millisecond, Backoff: pipeline.Fixed}})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	d := awaitState(t, pool, res.ID, "dead")
	if calls.Load() != 2 || d.LastError.Code != string(errcode.JobPanicked) || d.LastError.Terminal {
		t.Fatalf("calls %d, %+v", calls.Load(), d.LastError)
	}
	if !strings.Contains(d.LastError.Message, "runtime.boundsError") || !strings.Contains(d.LastError.Message, "worker_test.go:") {
		t.Fatalf("the message does not name the panic's type and line: %s", d.LastError.Message)
	}
	for _, e := range d.Journal {
		if strings.Contains(string(e.Data), "secret-") {
			t.Fatalf("the panic's value was stored: %s", e.Data)
		}
	}
}

// A registered job whose queue the worker does not serve is named at start:
// its runs would otherwise wait without a word.
func TestAWorkerNamesTheJobsItsQueuesLeaveOut(t *testing.T) {
	pool := fixtures.DB(t)
	served := pipeline.MustJob("served", keyK, noop, pipeline.JobOptions[noInput, struct{}]{Queue: "a"})
	left := pipeline.MustJob("left-out", keyK, noop, pipeline.JobOptions[noInput, struct{}]{Queue: "b"})
	logs := &logRecorder{}
	startWorker(t, pool, pipeline.WorkerConfig{Queues: map[string]int{"a": 1}, Logger: slog.New(logs)}, served, left)
	logs.await(t, "jobs.worker.unserved")
	logs.mu.Lock()
	defer logs.mu.Unlock()
	if n := len(slices.DeleteFunc(slices.Clone(logs.events), func(e string) bool { return e != "jobs.worker.unserved" })); n != 1 {
		t.Fatalf("%d unserved warnings; want one, for left-out", n)
	}
}
