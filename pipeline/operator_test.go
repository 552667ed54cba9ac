package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

func TestAPausedQueueIsNotClaimedButTakesEnqueues(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	admin := pipeline.NewAdmin(pool)
	j := payloadJob("paused")
	if err := admin.PauseQueue(ctx, "default"); err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, err := j.Enqueue(ctx, pool, payload{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	qs, _ := admin.Queues(ctx)
	if len(qs) != 1 || !qs[0].Paused || qs[0].Ready != 1 {
		t.Fatalf("queues %+v", qs)
	}
	// The claim reads the pause: several passes happen and claim nothing.
	awaitStat(t, w.Stats().Passes.Load, 3)
	if w.Stats().Claimed.Load() != 0 {
		t.Fatal("a paused queue was claimed")
	}
	if err := admin.ResumeQueue(ctx, "default"); err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, "done")
}

func mustWorkers(t *testing.T, admin *pipeline.Admin) []pipeline.WorkerInfo {
	t.Helper()
	ws, err := admin.Workers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func TestWorkersListsLiveWorkersAndTheirRuns(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	admin := pipeline.NewAdmin(pool)
	started, release := make(chan struct{}), make(chan struct{})
	j := pipeline.MustJob("held", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		close(started)
		<-release
		return 1, nil
	})
	// A heartbeat's announce is bounded by the heartbeat: at 20 ms, through
	// the kit's PgBouncer on a loaded machine, every announce ran past it
	// and the row was never renewed (a CI run's PgBouncer leg; reproduced
	// on the code before this stop, one run in three). 250 ms is still
	// forty renewals in the test's wait.
	w := startWorker(t, pool, pipeline.WorkerConfig{ID: "w-1", Heartbeat: 250 * time.Millisecond}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	<-started
	deadline := time.Now().Add(10 * time.Second)
	for {
		ws := mustWorkers(t, admin)
		if len(ws) == 1 && ws[0].ID == "w-1" && len(ws[0].InFlight) == 1 && ws[0].InFlight[0] == res.ID && ws[0].Queues["default"] == 100 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("workers %+v", ws)
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(release)
	if err := w.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if ws := mustWorkers(t, admin); len(ws) != 0 {
		t.Fatalf("a stopped worker is still listed: %+v", ws)
	}
}

func TestBulkCallsAreBoundedAndReportWhatIsLeft(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	admin := pipeline.NewAdmin(pool)
	j := payloadJob("bulk")
	ins := make([]payload, 1200)
	for i := range ins {
		ins[i] = payload{K: fmt.Sprint(i)}
	}
	if _, err := j.EnqueueMany(ctx, pool, ins, pipeline.EnqueueOptions{Delay: time.Hour}); err != nil {
		t.Fatal(err)
	}
	r, err := admin.PromoteMany(ctx, pipeline.BulkFilter{State: "delayed", Name: "bulk"})
	if err != nil || r.Affected != 1000 || r.Remaining != 200 {
		t.Fatalf("promote: %+v %v", r, err)
	}
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `update pipe.jobs set state = 'dead', finished_at = now() where name = 'bulk'`); err != nil {
		t.Fatal(err)
	}
	// A live run holding key "0" keeps its dead twin where it is.
	if _, err := j.Enqueue(ctx, pool, payload{K: "0"}); err != nil {
		t.Fatal(err)
	}
	r, err = admin.RequeueMany(ctx, pipeline.BulkFilter{State: "dead", Name: "bulk"})
	if err != nil || r.Affected != 1000 || r.Remaining != 199 {
		t.Fatalf("requeue: %+v %v", r, err)
	}
	r, _ = admin.RequeueMany(ctx, pipeline.BulkFilter{State: "dead", Name: "bulk"})
	if r.Affected != 199 || r.Remaining != 0 {
		t.Fatalf("requeue again: %+v", r)
	}
	r, err = admin.RemoveMany(ctx, pipeline.BulkFilter{State: "ready", Name: "bulk"})
	if err != nil || r.Affected != 1000 || r.Remaining != 200 {
		t.Fatalf("remove: %+v %v", r, err)
	}
	if _, err := admin.RemoveMany(ctx, pipeline.BulkFilter{State: "running"}); !errors.Is(err, errcode.JobNotRemovable) {
		t.Fatalf("remove running: %v", err)
	}
	if _, err := admin.RequeueMany(ctx, pipeline.BulkFilter{State: "ready"}); !errors.Is(err, errcode.JobNotRequeueable) {
		t.Fatalf("requeue live: %v", err)
	}
}

func TestCountersMoveWithTheSettleAndMaintainPurges(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	admin := pipeline.NewAdmin(pool)
	j := pipeline.MustJob("counted", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if run.Input.K == "bad" {
			return 0, errors.New("no")
		}
		return 1, nil
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: time.Millisecond}})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	a, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	b, _ := j.Enqueue(ctx, pool, noInput{K: "bad"})
	awaitState(t, pool, a.ID, "done")
	awaitState(t, pool, b.ID, "dead")
	totals, err := admin.CounterTotals(ctx, time.Now().Add(-time.Hour))
	if err != nil || len(totals) != 1 || totals[0].Done != 1 || totals[0].Retried != 1 || totals[0].Dead != 1 {
		t.Fatalf("totals %+v %v", totals, err)
	}
	fixtures.FreezeClock(t, pool, time.Now().Add(16*24*time.Hour))
	m, err := pipeline.Maintain(ctx, pool, pipeline.Retention{})
	if err != nil || m.Purged != 1 {
		t.Fatalf("maintain %+v %v", m, err)
	}
	if _, err := admin.Show(ctx, a.ID); !errors.Is(err, errcode.JobNotFound) {
		t.Fatalf("purged run still shows: %v", err)
	}
	if _, err := admin.Show(ctx, b.ID); err != nil {
		t.Fatalf("a dead run within 90 days was purged: %v", err)
	}
}
