package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

func runOnce(t *testing.T, name string, body pipeline.Body[noInput, int], opts ...pipeline.JobOptions[noInput, int]) *pipeline.RunDetail {
	t.Helper()
	pool := fixtures.DB(t)
	j := pipeline.MustJob(name, keyK, body, opts...)
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, err := j.Enqueue(context.Background(), pool, noInput{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	return awaitState(t, pool, res.ID, "done", "dead", "failed")
}

func TestDuplicateStepNameIsTerminal(t *testing.T) {
	d := runOnce(t, "dup-step", func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if _, err := pipeline.Step(ctx, "same", func(context.Context) (int, error) { return 1, nil }); err != nil {
			return 0, err
		}
		return pipeline.Step(ctx, "same", func(context.Context) (int, error) { return 2, nil })
	}, pipeline.JobOptions[noInput, int]{Retry: fastRetry})
	if d.State != "dead" || d.Attempt != 1 || d.LastError.Code != string(errcode.StepDuplicate) {
		t.Fatalf("state %s attempt %d error %+v", d.State, d.Attempt, d.LastError)
	}
}

func TestUnserializableStepOutputIsTerminal(t *testing.T) {
	d := runOnce(t, "chan-step", func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		_, err := pipeline.Step(ctx, "chan", func(context.Context) (chan int, error) { return make(chan int), nil })
		return 0, err
	}, pipeline.JobOptions[noInput, int]{Retry: fastRetry})
	if d.State != "dead" || d.Attempt != 1 || d.LastError.Code != string(errcode.StepOutputUnserializable) {
		t.Fatalf("state %s attempt %d error %+v", d.State, d.Attempt, d.LastError)
	}
}

func TestReservedStepNamesAreRefused(t *testing.T) {
	d := runOnce(t, "reserved-step", func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		return pipeline.Step(ctx, "compensate:charge", func(context.Context) (int, error) { return 1, nil })
	}, pipeline.JobOptions[noInput, int]{Retry: fastRetry})
	if d.State != "dead" || d.LastError.Code != string(errcode.JobDeclarationInvalid) {
		t.Fatalf("state %s error %+v", d.State, d.LastError)
	}
}

func TestStepOutsideABodyIsInvariant(t *testing.T) {
	_, err := pipeline.Step(context.Background(), "x", func(context.Context) (int, error) { return 1, nil })
	if !errors.Is(err, errcode.Invariant) {
		t.Fatalf("err = %v", err)
	}
}

func TestStepTimeoutCapsOneStep(t *testing.T) {
	d := runOnce(t, "step-timeout", func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		return pipeline.Step(ctx, "slow", func(ctx context.Context) (int, error) {
			<-ctx.Done()
			return 0, ctx.Err()
		})
	}, pipeline.JobOptions[noInput, int]{StepTimeout: 20 * time.Millisecond, Retry: &pipeline.Retry{Attempts: 1}})
	if d.LastError.Code != string(errcode.StepTimeout) {
		t.Fatalf("%+v", d.LastError)
	}
	if s := stepOf(d, "slow"); s.State != "failed" || s.Executions != 1 {
		t.Fatalf("step %+v", s)
	}
}

func TestStepTxCommitsTheEffectWithTheCompletionOrNeither(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	if _, err := pool.Exec(ctx, `create table effects (step text not null)`); err != nil {
		t.Fatal(err)
	}
	var tries atomic.Int32
	j := pipeline.MustJob("steptx", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		return pipeline.StepTx(ctx, "write", func(ctx context.Context, tx pgx.Tx) (int, error) {
			if _, err := tx.Exec(ctx, `insert into effects values ('write')`); err != nil {
				return 0, err
			}
			if tries.Add(1) == 1 {
				return 0, errors.New("fails after writing")
			}
			return 5, nil
		})
	}, pipeline.JobOptions[noInput, int]{Retry: fastRetry})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	d := awaitState(t, pool, res.ID, "done")
	if n := countEffect(t, pool, "write"); n != 1 {
		t.Fatalf("%d effects; the failed try's write should have rolled back", n)
	}
	if s := stepOf(d, "write"); string(s.Output) != "5" || s.Executions != 2 {
		t.Fatalf("step %+v", s)
	}
}

func TestOnceStepWithUnknownOutcomeStopsAndIsResolved(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var charges atomic.Int32
	j := pipeline.MustJob("once", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		return pipeline.Step(ctx, "charge", func(context.Context) (int, error) {
			if charges.Add(1) == 1 {
				return 0, errors.New("the provider timed out: did it charge?")
			}
			return 99, nil
		}, pipeline.Once())
	}, pipeline.JobOptions[noInput, int]{Retry: fastRetry})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	admin := pipeline.NewAdmin(pool)

	res, _ := j.Enqueue(ctx, pool, noInput{K: "ran"})
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.StepOutcomeUnknown) || charges.Load() != 1 || stepOf(d, "charge").State != "started" {
		t.Fatalf("error %+v charges %d step %+v", d.LastError, charges.Load(), stepOf(d, "charge"))
	}
	if err := admin.ResolveStep(ctx, res.ID, "charge", true, json.RawMessage(`42`)); err != nil {
		t.Fatal(err)
	}
	if err := admin.Requeue(ctx, res.ID); err != nil {
		t.Fatal(err)
	}
	d = awaitState(t, pool, res.ID, "done")
	if string(d.Result) != "42" || charges.Load() != 1 {
		t.Fatalf("resolved ran: result %s charges %d", d.Result, charges.Load())
	}

	charges.Store(0)
	res, _ = j.Enqueue(ctx, pool, noInput{K: "not-ran"})
	awaitState(t, pool, res.ID, "dead")
	if err := admin.ResolveStep(ctx, res.ID, "charge", false, nil); err != nil {
		t.Fatal(err)
	}
	if err := admin.ResolveStep(ctx, res.ID, "charge", false, nil); !errors.Is(err, errcode.StepNotFound) {
		t.Fatalf("resolving twice: %v", err)
	}
	_ = admin.Requeue(ctx, res.ID)
	d = awaitState(t, pool, res.ID, "done")
	if string(d.Result) != "99" || charges.Load() != 2 {
		t.Fatalf("resolved not-ran: result %s charges %d", d.Result, charges.Load())
	}
}
