package pipeline_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// Two workers of one process, each with the default id: both are listed,
// each with its own row, and stopping one removes its row alone.
func TestTwoWorkersOfOneProcessKeepARowEach(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	admin := pipeline.NewAdmin(pool)
	j := pipeline.MustJob("presence", keyK, func(context.Context, *pipeline.Run[noInput]) (int, error) { return 1, nil })
	// A heartbeat bounds its announce: at 20 ms, through the kit's
	// PgBouncer on a loaded machine, the announces ran past it and the row
	// was not renewed in 10 s (a CI run's PgBouncer leg), as
	// TestWorkersListsLiveWorkersAndTheirRuns found before.
	cfg := pipeline.WorkerConfig{Heartbeat: 250 * time.Millisecond}
	a := startWorker(t, pool, cfg, j)
	b := startWorker(t, pool, cfg, j)
	if a.ID() == b.ID() {
		t.Fatalf("two workers of one process share the id %s", a.ID())
	}
	listed := func() []string {
		var ids []string
		for _, w := range mustWorkers(t, admin) {
			ids = append(ids, w.ID)
		}
		slices.Sort(ids)
		return ids
	}
	both := []string{a.ID(), b.ID()}
	slices.Sort(both)
	if got := listed(); !slices.Equal(got, both) {
		t.Fatalf("workers %v; want %v", got, both)
	}
	if err := a.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if got := listed(); !slices.Equal(got, []string{b.ID()}) {
		t.Fatalf("workers %v after %s stopped; want %s alone", got, a.ID(), b.ID())
	}
	// The one left still works and still renews its row.
	res, err := j.Enqueue(ctx, pool, noInput{K: "after"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, pipeline.StateDone)
	first := mustWorkers(t, admin)[0].LastHeartbeat
	deadline := time.Now().Add(10 * time.Second)
	for ws := mustWorkers(t, admin); len(ws) != 1 || !ws[0].LastHeartbeat.After(first); ws = mustWorkers(t, admin) {
		if time.Now().After(deadline) {
			t.Fatalf("the remaining worker's row is not renewed: %+v", ws)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
