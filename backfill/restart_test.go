package backfill_test

import (
	"context"
	"testing"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/fixtures"
)

// The database restarts mid-pass: the batch in flight is lost with its
// connection, the attempt is retried, and the pass resumes at the cursor
// with every row changed once.
func TestAPassSurvivesADatabaseRestart(t *testing.T) {
	const rows = 8000
	srv := fixtures.RestartableServer(t)
	pool := srv.DB(t)
	exec(t, pool, ordersDDL)
	exec(t, pool, `insert into orders (id, total) select g, g / 100.0 from generate_series(1, $1) g`, rows)
	o := fillOptions()
	o.Rate = 2000
	o.Job.Retry.Attempts = 10
	job := mustNew(t, "test.fill", o)
	res, err := job.Enqueue(context.Background(), pool, Req{Label: "a"})
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, job)
	awaitLedger(t, pool, res.RunID, func(p backfill.Pass) bool { return p.Rows >= 1000 })
	srv.Restart(t)
	if d := fixtures.AwaitSettled(t, pool, res.ID); d.State != "done" {
		t.Fatalf("the pass is %s: %+v", d.State, d.LastError)
	}
	assertEachOnce(t, pool, rows)
}
