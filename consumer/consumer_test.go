package consumer_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/fixtures"
)

// A run follows its key to the end of the feed: every item once in the
// effect table, the cursor on the last, batches of Batch items, and the
// status saying so.
func TestRunCommitsEachBatchWithItsCursor(t *testing.T) {
	pool := setup(t)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 95, true) }}
	c := consumer.MustNew(options("orders", fs, "acct-1"))
	res, err := c.Enqueue(context.Background(), pool, "acct-1")
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	d := fixtures.AwaitSettled(t, pool, res.ID)
	if d.State != "done" {
		t.Fatalf("run %s: %s", d.State, lastCode(d))
	}
	var out consumer.Result
	if err := json.Unmarshal(d.Result, &out); err != nil || out.Items != 95 || out.Batches != 10 {
		t.Fatalf("result %s (%v); want 95 items in 10 batches", d.Result, err)
	}
	if n, distinct, top := effectsOf(t, pool, "acct-1"); n != 95 || distinct != 95 || top != 95 {
		t.Fatalf("effects %d (%d distinct, top %d); want 1..95 once", n, distinct, top)
	}
	if cur := cursorOf(t, pool, "orders", "acct-1"); cur != 95 {
		t.Fatalf("cursor %d; want 95", cur)
	}
	st, ok := consumer.StatusOf(d)
	if !ok || st.Key != "acct-1" || st.Items != 95 || st.Batches != 10 || st.LastBatchAt == nil || st.Lag != nil {
		t.Fatalf("status %+v (%v)", st, ok)
	}
	for _, r := range fs.last("acct-1").calls() {
		if r.max > 10 {
			t.Fatalf("a read asked for %d items; the batch is 10", r.max)
		}
	}
}

// A partly filled batch commits once a read waiting Linger brings no next
// item: a quiet stream holds nothing read and uncommitted, while the run
// goes on.
func TestLingerCommitsAPartlyFilledBatch(t *testing.T) {
	pool := setup(t)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 3, false) }}
	o := options("quiet", fs, "k")
	o.Batch = 100
	c := consumer.MustNew(o)
	if _, err := c.Enqueue(context.Background(), pool, "k"); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	awaitCursor(t, pool, "quiet", "k", 3)
	calls := fs.last("k").calls()
	if len(calls) < 2 || calls[0].got != 3 || calls[0].wait != consumer.IdleWait ||
		calls[1].wait != consumer.Linger || calls[1].got != 0 || calls[1].max != 97 {
		t.Fatalf("reads %+v; want 3 items, then one read of up to 97 waiting the linger that brought none", calls)
	}
	if d := runOf(t, pool, "quiet", "k"); d.State != "running" {
		t.Fatalf("the run is %s; a quiet stream keeps it running", d.State)
	}
	if n, _, _ := effectsOf(t, pool, "k"); n != 3 {
		t.Fatalf("%d effects; want the 3 items", n)
	}
}

// Lag is measured against the saved cursor and reported as the run's
// progress (done, done+lag) — after the first batch, and again as soon as
// the feed goes quiet, however long LagEvery; StatusOf reads it back with
// the key and the last batch's time.
func TestLagIsTheRunsProgress(t *testing.T) {
	pool := setup(t)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 30, false) }}
	o := options("lagging", fs, "k")
	o.Lag = func(_ context.Context, _ pgx.Tx, _ string, cursor int64) (int64, error) { return 50 - cursor, nil }
	o.LagEvery = time.Hour // only the quiet feed can bring the second measure
	c := consumer.MustNew(o)
	if _, err := c.Enqueue(context.Background(), pool, "k"); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	awaitCursor(t, pool, "lagging", "k", 30)
	deadline := time.Now().Add(30 * time.Second)
	for {
		d := runOf(t, pool, "lagging", "k")
		st, ok := consumer.StatusOf(d)
		if ok && st.Lag != nil && *st.Lag == 20 && st.Items == 30 {
			if st.LastBatchAt == nil || d.StatusAt == nil || !st.LastBatchAt.Equal(*d.StatusAt) {
				t.Fatalf("status %+v at %v", st, d.StatusAt)
			}
			var p struct{ Done, Total int64 }
			if err := json.Unmarshal(d.Progress, &p); err != nil || p.Done != 30 || p.Total != 50 {
				t.Fatalf("progress %s (%v); want done 30 of 50", d.Progress, err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %+v (%v) after 30s; want lag 20 after 30 items", st, ok)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
