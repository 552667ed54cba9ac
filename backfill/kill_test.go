package backfill_test

import (
	"context"
	"testing"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/fixtures"
)

// A worker SIGKILLed mid-pass leaves its batch uncommitted; the run that
// takes over resumes at the ledger's cursor, and every row is changed
// exactly once (the trigger counts each update).
func TestAPassKilledMidwayResumesAndChangesEachRowOnce(t *testing.T) {
	const rows = 12000
	pool := setup(t, rows)
	url := pool.Config().ConnString()
	o := fillOptions()
	job := mustNew(t, "test.fill", o)
	res, err := job.Enqueue(context.Background(), pool, Req{Label: "a"})
	if err != nil {
		t.Fatal(err)
	}
	child := fixtures.StartChild(t, url, "worker")
	p := awaitLedger(t, pool, res.RunID, func(p backfill.Pass) bool { return p.Rows >= 2000 })
	child.Kill(t)
	if p.State == "done" {
		t.Fatal("the pass ended before the kill")
	}
	fixtures.StartWorker(t, pool, job)
	if d := fixtures.AwaitSettled(t, pool, res.ID); d.State != "done" {
		t.Fatalf("the resumed pass is %s", d.State)
	}
	assertEachOnce(t, pool, rows)
	if p := awaitLedger(t, pool, res.RunID, func(p backfill.Pass) bool { return p.State == "done" }); p.Rows != rows {
		t.Fatalf("the ledger counts %d rows", p.Rows)
	}
}
