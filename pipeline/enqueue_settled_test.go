package pipeline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// settlingDB is a pool whose enqueue statement is followed, before the
// caller's next statement, by the settling of every live run of job: the
// run that held a key finishes between the insert that skipped the key and
// the read of the run that held it, as a fast worker's run can.
type settlingDB struct {
	*pgxpool.Pool
	t      *testing.T
	job    string
	rounds int // how many enqueue statements are followed by a settling
}

func (d *settlingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := d.Pool.Query(ctx, sql, args...)
	if err != nil || !strings.Contains(sql, "on conflict (name, tenant, idem_key)") || d.rounds == 0 {
		return rows, err
	}
	d.rounds--
	// The statement's rows are read whole before the settling, as the
	// enqueue reads them.
	collected, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([16]byte, error) {
		var id [16]byte
		return id, r.Scan(&id)
	})
	if err != nil {
		return nil, err
	}
	if _, err := fixtures.Owner(d.t, d.Pool).Exec(ctx, `update pipe.jobs set state = 'done', finished_at = pipe.now() where name = $1 and state <> 'done'`, d.job); err != nil {
		d.t.Fatal(err)
	}
	// Answer the ids the statement inserted, as the statement did.
	return d.Pool.Query(ctx, `select unnest($1::uuid[])`, collected)
}

// An enqueue whose key a live run held when it inserted, and which finished
// before the enqueue read it, queues a new run of the key: the key is free.
// It used to fail with X_INVARIANT ("a deduped input's live row was not
// found"), seen when a scheduled task's fire met the run that Arm had just
// enqueued and finished.
func TestAnEnqueueWhoseHeldKeySettledMeanwhileQueuesANewRun(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("enqueue.settled")
	first, err := j.Enqueue(ctx, pool, payload{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	db := &settlingDB{Pool: pool, t: t, job: "enqueue.settled", rounds: 1}
	res, err := j.Enqueue(ctx, db, payload{K: "a", Note: "second"})
	if err != nil {
		t.Fatalf("the enqueue failed: %v", err)
	}
	if res.Deduped || res.ID == first.ID {
		t.Fatalf("the enqueue answered %+v; want a new run beside the finished %s", res, first.ID)
	}
	var state, note string
	if err := pool.QueryRow(ctx, `select state, input->>'note' from pipe.jobs where id = $1`, res.ID).Scan(&state, &note); err != nil {
		t.Fatal(err)
	}
	if state != "ready" || note != "second" {
		t.Fatalf("the new run is %s with note %q; want ready with the second input", state, note)
	}
	if n := countJobs(t, pool, "enqueue.settled"); n != 2 {
		t.Fatalf("%d runs of the key; want the finished one and the new one", n)
	}
}

// In one EnqueueMany, an input repeating a key answers the run of the
// input before it, even when that run finished before the repeat was
// resolved; a key whose holder settled is queued anew.
func TestEnqueueManyRepeatsAnswerTheirFirstWhenRunsSettleMeanwhile(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("enqueue.settled.many")
	held, err := j.Enqueue(ctx, pool, payload{K: "held"})
	if err != nil {
		t.Fatal(err)
	}
	db := &settlingDB{Pool: pool, t: t, job: "enqueue.settled.many", rounds: 1}
	res, err := j.EnqueueMany(ctx, db, []payload{{K: "new"}, {K: "held"}, {K: "new"}, {K: "held"}})
	if err != nil {
		t.Fatalf("the enqueue failed: %v", err)
	}
	if res[0].Deduped || res[2] != (pipeline.EnqueueResult{ID: res[0].ID, RunID: res[0].RunID, Deduped: true}) {
		t.Fatalf("the new key answered %+v and its repeat %+v; want one run, the repeat deduped to it", res[0], res[2])
	}
	if res[1].Deduped || res[1].ID == held.ID || res[3] != (pipeline.EnqueueResult{ID: res[1].ID, RunID: res[1].RunID, Deduped: true}) {
		t.Fatalf("the held key answered %+v and its repeat %+v; want a new run beside the finished %s, the repeat deduped to it", res[1], res[3], held.ID)
	}
	if n := countJobs(t, pool, "enqueue.settled.many"); n != 3 {
		t.Fatalf("%d runs; want the finished held one, and one new run of each key", n)
	}
}
