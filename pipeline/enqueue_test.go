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

type payload struct {
	K    string `json:"k"`
	Note string `json:"note"`
}

func payloadKey(p payload) string { return p.K }

func payloadJob(name string) *pipeline.Job[payload, struct{}] {
	return pipeline.MustJob(name, payloadKey, func(context.Context, *pipeline.Run[payload]) (struct{}, error) {
		return struct{}{}, nil
	})
}

func countJobs(t *testing.T, db pipeline.DB, name string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), `select count(*) from pipe.jobs where name = $1`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestEnqueueJoinsTheCallersTransaction(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("tx.join")
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := j.Enqueue(ctx, tx, payload{K: "a"})
	if err != nil || res.ID == "" || res.RunID != res.ID || res.Deduped {
		t.Fatalf("enqueue = %+v, %v", res, err)
	}
	if n := countJobs(t, pool, "tx.join"); n != 0 {
		t.Fatalf("an uncommitted enqueue is visible outside: %d", n)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countJobs(t, pool, "tx.join"); n != 0 {
		t.Fatalf("a rolled-back enqueue left %d rows", n)
	}
	tx, _ = pool.Begin(ctx)
	if _, err := j.Enqueue(ctx, tx, payload{K: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countJobs(t, pool, "tx.join"); n != 1 {
		t.Fatalf("committed enqueue: %d rows", n)
	}
}

func TestEnqueueDedupesWhileLiveFirstPayloadWins(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("dedupe")
	first, err := j.Enqueue(ctx, pool, payload{K: "k", Note: "first"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := j.Enqueue(ctx, pool, payload{K: "k", Note: "second"})
	if err != nil || !second.Deduped || second.ID != first.ID {
		t.Fatalf("second = %+v, %v; want deduped onto %s", second, err, first.ID)
	}
	d, _ := pipeline.NewAdmin(pool).Show(ctx, first.ID)
	if string(d.Input) != `{"k": "k", "note": "first"}` {
		t.Fatalf("stored input %s; the first payload should win", d.Input)
	}
	// Once terminal, the same key enqueues a new run.
	if err := pipeline.NewAdmin(pool).Cancel(ctx, first.ID, "test"); err != nil {
		t.Fatal(err)
	}
	third, err := j.Enqueue(ctx, pool, payload{K: "k", Note: "third"})
	if err != nil || third.Deduped || third.ID == first.ID {
		t.Fatalf("after terminal: %+v, %v", third, err)
	}
}

func TestTenantScopesTheKey(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := pipeline.MustJob("tenanted", payloadKey, func(context.Context, *pipeline.Run[payload]) (int, error) { return 0, nil },
		pipeline.JobOptions[payload, int]{Tenant: func(p payload) string { return p.Note }})
	a, _ := j.Enqueue(ctx, pool, payload{K: "same", Note: "org-a"})
	b, err := j.Enqueue(ctx, pool, payload{K: "same", Note: "org-b"})
	if err != nil || b.Deduped || a.ID == b.ID {
		t.Fatalf("another tenant's key deduped: %+v %v", b, err)
	}
}

func TestRunIDMustBeLowercaseUUID(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("run-id")
	for _, bad := range []string{"nope", "0190C6F0-7A36-7CC1-A3F2-5E0C2B7D9A11", "0190c6f07a367cc1a3f25e0c2b7d9a11"} {
		if _, err := j.Enqueue(ctx, pool, payload{K: "x"}, pipeline.EnqueueOptions{RunID: bad}); !errors.Is(err, errcode.IDInvalid) {
			t.Errorf("RunID %q: err = %v", bad, err)
		}
	}
	if n := countJobs(t, pool, "run-id"); n != 0 {
		t.Fatalf("a refused enqueue wrote %d rows", n)
	}
	runID := "0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a11"
	res, err := j.Enqueue(ctx, pool, payload{K: "x"}, pipeline.EnqueueOptions{RunID: runID})
	if err != nil || res.RunID != runID || res.ID == runID {
		t.Fatalf("named run = %+v, %v", res, err)
	}
	if _, err := j.Enqueue(ctx, pool, payload{K: "y"}, pipeline.EnqueueOptions{RunID: runID}); !errors.Is(err, errcode.IDInvalid) {
		t.Fatalf("a reused run id: err = %v", err)
	}
}

func TestEnqueueManyAnswersInInputOrderWithDedupe(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("many")
	live, _ := j.Enqueue(ctx, pool, payload{K: "k2"})
	ins := make([]payload, 2500)
	for i := range ins {
		ins[i] = payload{K: fmt.Sprintf("k%d", i)}
	}
	ins[1700] = payload{K: "k5"} // a second input with k5's key, in another chunk
	res, err := j.EnqueueMany(ctx, pool, ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(ins) {
		t.Fatalf("%d results for %d inputs", len(res), len(ins))
	}
	if !res[2].Deduped || res[2].ID != live.ID {
		t.Errorf("k2 should dedupe onto the live row: %+v", res[2])
	}
	if res[5].Deduped || !res[1700].Deduped || res[1700].ID != res[5].ID {
		t.Errorf("two inputs with one key should be one job: %+v %+v", res[5], res[1700])
	}
	if n := countJobs(t, pool, "many"); n != 2499 {
		t.Errorf("%d rows; want 2499 (2500 inputs, one key twice, k2 already live counts once)", n)
	}
	if res[0].Deduped || res[0].ID == res[1].ID {
		t.Errorf("distinct keys collided: %+v %+v", res[0], res[1])
	}
}

func TestEnqueueManyRefusesBeforeWriting(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("many.refused")
	if _, err := j.EnqueueMany(ctx, pool, make([]payload, pipeline.MaxEnqueueBatch+1)); !errors.Is(err, errcode.JobEnqueueBatchTooLarge) {
		t.Fatalf("too large: %v", err)
	}
	ins := []payload{{K: "a"}, {K: "b"}, {K: ""}}
	if _, err := j.EnqueueMany(ctx, pool, ins); !errors.Is(err, errcode.Invariant) {
		t.Fatalf("an empty key: %v", err)
	}
	if n := countJobs(t, pool, "many.refused"); n != 0 {
		t.Fatalf("a refused batch wrote %d rows", n)
	}
}

func TestDelayedEnqueueIsDelayed(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("delayed")
	res, err := j.Enqueue(ctx, pool, payload{K: "d"}, pipeline.EnqueueOptions{Delay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := pipeline.NewAdmin(pool).Show(ctx, res.ID)
	if d.State != "delayed" || time.Until(d.RunAt) < 59*time.Minute {
		t.Fatalf("state %s run at %v", d.State, d.RunAt)
	}
	if err := pipeline.NewAdmin(pool).Promote(ctx, res.ID); err != nil {
		t.Fatal(err)
	}
	d, _ = pipeline.NewAdmin(pool).Show(ctx, res.ID)
	if d.State != "ready" || time.Until(d.RunAt) > time.Second {
		t.Fatalf("promoted: state %s run at %v", d.State, d.RunAt)
	}
}

// A bulk enqueue inside the caller's transaction: a chunk tried without ON
// CONFLICT and refused on a held key is written again within the same
// transaction, which stays usable and commits (or rolls back) whole.
func TestEnqueueManyInATransactionSurvivesAHeldKey(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("many.tx")
	live, _ := j.Enqueue(ctx, pool, payload{K: "k7"})
	ins := make([]payload, 100)
	for i := range ins {
		ins[i] = payload{K: fmt.Sprintf("k%d", i)}
	}
	for _, commit := range []bool{false, true} {
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		res, err := j.EnqueueMany(ctx, tx, ins)
		if err != nil {
			t.Fatal(err)
		}
		if !res[7].Deduped || res[7].ID != live.ID || res[8].Deduped {
			t.Fatalf("k7 %+v, k8 %+v: the held key dedupes, the rest are new", res[7], res[8])
		}
		if n := countJobs(t, tx, "many.tx"); n != 100 {
			t.Fatalf("%d rows inside the transaction; want 100", n)
		}
		if commit {
			err = tx.Commit(ctx)
		} else {
			err = tx.Rollback(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool]int{false: 1, true: 100}[commit]
		if n := countJobs(t, pool, "many.tx"); n != want {
			t.Fatalf("committed %v: %d rows; want %d", commit, n, want)
		}
	}
	// Fresh keys in a transaction, with nothing held: every input is new.
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	fresh := make([]payload, 50)
	for i := range fresh {
		fresh[i] = payload{K: fmt.Sprintf("fresh%d", i)}
	}
	res, err := j.EnqueueMany(ctx, tx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.Deduped || r.ID == "" {
			t.Fatalf("fresh input %d: %+v", i, r)
		}
	}
}

// An enqueue whose context ended answers the context's own code, not a
// database failure: X_DRAINING from a draining caller, X_ABORTED from a
// plain cancel.
func TestAnEnqueueWhoseContextEndedAnswersItsCode(t *testing.T) {
	pool := fixtures.DB(t)
	j := payloadJob("ctx-ended")
	draining, stop := context.WithCancelCause(context.Background())
	stop(errcode.New(errcode.Draining, "draining"))
	if _, err := j.Enqueue(draining, pool, payload{K: "a"}); errcode.CodeOf(err) != errcode.Draining {
		t.Fatalf("a drained enqueue: %v", err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := j.EnqueueMany(cancelled, pool, []payload{{K: "a"}, {K: "b"}}); errcode.CodeOf(err) != errcode.Aborted {
		t.Fatalf("a cancelled enqueue: %v", err)
	}
	if n := countJobs(t, pool, "ctx-ended"); n != 0 {
		t.Fatalf("%d rows written", n)
	}
}
