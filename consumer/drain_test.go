package consumer_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A drain commits the batch in hand — five items read, the feed then deaf
// to its wait — and hands the run back interrupted, the attempt uncounted;
// the next worker goes on from the cursor the drain committed.
func TestDrainCommitsTheBatchInHandUncounted(t *testing.T) {
	pool := setup(t)
	var last atomic.Int64
	last.Store(5)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed {
		f := newSeqFeed(cursor, last.Load(), last.Load() == 12)
		f.deaf = true
		return f
	}}
	c := consumer.MustNew(options("drained", fs, "k"))
	res, err := c.Enqueue(context.Background(), pool, "k")
	if err != nil {
		t.Fatal(err)
	}
	w := fixtures.StartWorker(t, pool, c.Jobs()...)
	awaitReads(t, fs, "k", 2) // five items in hand, the second read deaf
	if cur := cursorOf(t, pool, "drained", "k"); cur != 0 {
		t.Fatalf("cursor %d before the drain; the batch is still in hand", cur)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	d := runOf(t, pool, "drained", "k")
	if d.State != "ready" || d.Attempt != 0 || !slices.Contains(kindsOf(d), "interrupted") {
		t.Fatalf("after the drain: %s, attempt %d, journal %v; want ready, uncounted, interrupted", d.State, d.Attempt, kindsOf(d))
	}
	if cur := cursorOf(t, pool, "drained", "k"); cur != 5 {
		t.Fatalf("cursor %d after the drain; want the 5 in hand committed", cur)
	}
	last.Store(12)
	fixtures.StartWorker(t, pool, c.Jobs()...)
	d = fixtures.AwaitSettled(t, pool, res.ID)
	if d.State != "done" || d.Attempt != 1 {
		t.Fatalf("%s on attempt %d; want done on attempt 1", d.State, d.Attempt)
	}
	if n, distinct, top := effectsOf(t, pool, "k"); n != 12 || distinct != 12 || top != 12 {
		t.Fatalf("effects %d (%d distinct, top %d); want 1..12 once", n, distinct, top)
	}
	if f := fs.last("k"); f.calls()[0].got != 7 {
		t.Fatalf("the second run's first read got %d items; want the 7 after the cursor", f.calls()[0].got)
	}
}

func awaitReads(t *testing.T, fs *feeds, key string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if f := fs.last(key); f != nil && len(f.calls()) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d reads of %s after 30s", n, key)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func kindsOf(d *pipeline.RunDetail) []string {
	var out []string
	for _, e := range d.Journal {
		out = append(out, e.Kind)
	}
	return out
}
