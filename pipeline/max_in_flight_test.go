package pipeline_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// MaxInFlight holds across many queues, and no queue starves: eight queues
// of ten slots each under a process cap of three never run more than three
// bodies at once, and every queue has started a run among the first
// sixteen starts.
func TestMaxInFlightHoldsAcrossQueuesAndNoQueueStarves(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var now, most atomic.Int32
	var mu sync.Mutex
	var starts []string
	queues := map[string]int{}
	var jobs []pipeline.Registrable
	var enqueue []func() error
	for i := range 8 {
		q := fmt.Sprintf("q%d", i)
		queues[q] = 10
		j := pipeline.MustJob("inflight."+q, keyK, func(ctx context.Context, r *pipeline.Run[noInput]) (int, error) {
			n := now.Add(1)
			defer now.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			mu.Lock()
			starts = append(starts, r.Queue)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			return 0, nil
		}, pipeline.JobOptions[noInput, int]{Queue: q})
		jobs = append(jobs, j)
		enqueue = append(enqueue, func() error {
			ins := make([]noInput, 6)
			for k := range ins {
				ins[k] = noInput{K: fmt.Sprint(k)}
			}
			_, err := j.EnqueueMany(ctx, pool, ins)
			return err
		})
	}
	for _, e := range enqueue {
		if err := e(); err != nil {
			t.Fatal(err)
		}
	}
	startWorker(t, pool, pipeline.WorkerConfig{Queues: queues, MaxInFlight: 3}, jobs...)
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n := len(starts)
		mu.Unlock()
		if n == 48 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 48 runs started in 30 s", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if m := most.Load(); m > 3 {
		t.Fatalf("%d bodies ran at once under MaxInFlight 3", m)
	}
	mu.Lock()
	defer mu.Unlock()
	early := map[string]bool{}
	for _, q := range starts[:16] {
		early[q] = true
	}
	if len(early) != 8 {
		t.Fatalf("the first sixteen starts served %d of 8 queues: %v", len(early), starts[:16])
	}
}

// The room a queue with no work leaves goes to the next in the same pass:
// with one busy queue among five and a process cap of ten, one claim pass
// fills all ten slots (it claimed two, a fifth of the room, and left eight
// for later passes).
func TestAnEmptyQueueHandsItsRoomToTheNext(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	queues := map[string]int{"busy": 10, "idle1": 10, "idle2": 10, "idle3": 10, "idle4": 10}
	jobs := []pipeline.Registrable{}
	var busy *pipeline.Job[noInput, int]
	for q := range queues {
		j := pipeline.MustJob("handed."+q, keyK, func(ctx context.Context, r *pipeline.Run[noInput]) (int, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return 0, nil
		}, pipeline.JobOptions[noInput, int]{Queue: q})
		jobs = append(jobs, j)
		if q == "busy" {
			busy = j
		}
	}
	ins := make([]noInput, 20)
	for k := range ins {
		ins[k] = noInput{K: fmt.Sprint(k)}
	}
	if _, err := busy.EnqueueMany(ctx, pool, ins); err != nil {
		t.Fatal(err)
	}
	startWorker(t, pool, pipeline.WorkerConfig{Queues: queues, MaxInFlight: 10}, jobs...)
	deadline := time.Now().Add(10 * time.Second)
	var running, passes int
	for {
		if err := pool.QueryRow(ctx, `select count(*), count(distinct started_at) from pipe.jobs where name = 'handed.busy' and state = 'running'`).Scan(&running, &passes); err != nil {
			t.Fatal(err)
		}
		if running >= 10 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if running != 10 || passes != 1 {
		t.Fatalf("%d runs running, claimed by %d passes; want the cap's 10, by one pass", running, passes)
	}
}
