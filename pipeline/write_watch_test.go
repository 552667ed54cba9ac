package pipeline_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A watched scope reports a job enqueued one input at a time in a loop,
// once, at the NPlusOneAt-th enqueue, with X_N_PLUS_ONE_WRITE naming
// EnqueueMany; a few single enqueues, and one EnqueueMany of many, are not
// reported.
func TestAWatchedScopeReportsEnqueuesInALoop(t *testing.T) {
	pool := fixtures.DB(t)
	noop := func(context.Context, *pipeline.Run[noInput]) (int, error) { return 0, nil }
	looped := pipeline.MustJob("watch.looped", keyK, noop)
	few := pipeline.MustJob("watch.few", keyK, noop)
	batched := pipeline.MustJob("watch.batched", keyK, noop)
	var found []pipeline.WriteFinding
	ctx := pipeline.WatchWrites(context.Background(), func(f pipeline.WriteFinding) { found = append(found, f) })
	for i := range pipeline.NPlusOneAt + 2 {
		if _, err := looped.Enqueue(ctx, pool, noInput{K: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		if _, err := few.Enqueue(ctx, pool, noInput{K: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	many := make([]noInput, 50)
	for i := range many {
		many[i] = noInput{K: fmt.Sprint(i)}
	}
	if _, err := batched.EnqueueMany(ctx, pool, many); err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Job != "watch.looped" || found[0].Count != pipeline.NPlusOneAt {
		t.Fatalf("found %+v; want watch.looped once, at %d", found, pipeline.NPlusOneAt)
	}
	e, ok := errcode.As(found[0].Err)
	if !ok || e.Code != errcode.NPlusOneWrite || e.Fix == "" {
		t.Fatalf("the finding's error: %v", found[0].Err)
	}
}

// A worker with WatchWrites (pipe dev's) logs a run that enqueues in a
// loop, and not one that enqueues the same with EnqueueMany.
func TestAWatchingWorkerLogsARunThatEnqueuesInALoop(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	child := pipeline.MustJob("watch.child", keyK, func(context.Context, *pipeline.Run[noInput]) (int, error) { return 0, nil })
	fanOut := func(loop bool) pipeline.Body[noInput, int] {
		return func(ctx context.Context, r *pipeline.Run[noInput]) (int, error) {
			ins := make([]noInput, pipeline.NPlusOneAt)
			for i := range ins {
				ins[i] = noInput{K: r.Input.K + fmt.Sprint(i)}
			}
			if !loop {
				_, err := child.EnqueueMany(ctx, pool, ins)
				return 0, err
			}
			for _, in := range ins {
				if _, err := child.Enqueue(ctx, pool, in); err != nil {
					return 0, err
				}
			}
			return 0, nil
		}
	}
	batch := pipeline.MustJob("watch.batch", keyK, fanOut(false))
	loop := pipeline.MustJob("watch.loop", keyK, fanOut(true))
	events := &fixtures.Events{}
	startWorker(t, pool, pipeline.WorkerConfig{WatchWrites: true, Logger: slog.New(events)}, child, batch, loop)
	b, _ := batch.Enqueue(ctx, pool, noInput{K: "b"})
	awaitState(t, pool, b.ID, "done")
	if events.Has("jobs.write.n_plus_one") {
		t.Fatal("a run that enqueued with EnqueueMany was warned of a loop")
	}
	l, _ := loop.Enqueue(ctx, pool, noInput{K: "l"})
	awaitState(t, pool, l.ID, "done")
	events.Await(t, "jobs.write.n_plus_one")
}
