package pipeline_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A 72-hour sleep and an hour of backoff, driven by the frozen clock: the
// test never waits on the wall clock for them.
func TestFrozenClockDrivesSleepAndBackoff(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	clock := fixtures.FreezeClock(t, pool, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	var nudges atomic.Int32
	j := pipeline.MustJob("onboard.slow", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if err := pipeline.Sleep(ctx, "cool-off", 72*time.Hour); err != nil {
			return 0, err
		}
		return pipeline.Step(ctx, "nudge", func(context.Context) (int, error) {
			if nudges.Add(1) == 1 {
				return 0, errors.New("mail server down")
			}
			return 1, nil
		})
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 3, Delay: time.Hour, NoJitter: true}})
	startWorker(t, pool, pipeline.WorkerConfig{Clock: clock}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	d := awaitState(t, pool, res.ID, "suspended")
	if want := clock.Now().Add(72 * time.Hour); !d.RunAt.Equal(want) {
		t.Fatalf("wake at %v; want %v", d.RunAt, want)
	}
	clock.Advance(t, 72*time.Hour)
	awaitStat(t, func() int64 { return int64(nudges.Load()) }, 1)
	d = awaitState(t, pool, res.ID, "ready")
	if want := clock.Now().Add(time.Hour); !d.RunAt.Equal(want) || d.Attempt != 1 {
		t.Fatalf("retry at %v attempt %d; want %v after one attempt (the sleep spent none)", d.RunAt, d.Attempt, want)
	}
	clock.Advance(t, time.Hour)
	d = awaitState(t, pool, res.ID, "done")
	if nudges.Load() != 2 || d.Attempt != 2 {
		t.Fatalf("nudges %d attempt %d", nudges.Load(), d.Attempt)
	}
}

func TestFrozenClockDrivesJobTimeouts(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	clock := fixtures.FreezeClock(t, pool, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	started := make(chan struct{})
	j := pipeline.MustJob("slow-body", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		close(started)
		<-ctx.Done()
		return 0, ctx.Err()
	}, pipeline.JobOptions[noInput, int]{Timeout: 10 * time.Minute, Retry: &pipeline.Retry{Attempts: 1}})
	// A lease longer than the advance: the timeout, not a lapse, ends it.
	startWorker(t, pool, pipeline.WorkerConfig{Clock: clock, Lease: time.Hour}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	<-started
	clock.Advance(t, 10*time.Minute)
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.JobTimeout) {
		t.Fatalf("%+v", d.LastError)
	}
}
