package backfill_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// The long-transaction check looks at the pass's own database: a
// transaction open past the limit in another database of the same server
// holds back no vacuum of the pass's tables, and the pass runs to the end
// beside it; one open as long in the pass's own database holds the pass,
// and the ledger says why.
func TestOnlyATransactionOfThePasssOwnDatabaseHoldsIt(t *testing.T) {
	pool := setup(t, 1000)
	ctx := context.Background()
	o := fillOptions()
	o.Health = backfill.Health{TransactionAge: 300 * time.Millisecond, Every: 10 * time.Millisecond}
	o.Poll = 50 * time.Millisecond
	job := mustNew(t, "test.fill", o)
	fixtures.StartWorker(t, pool, job)

	_, otherPID := oldTransaction(t, fixtures.DB(t), o.Health.TransactionAge)
	p := settleOrWait(t, pool, job, "beside another database's transaction")
	if p.State != "done" || p.Rows != 1000 {
		t.Fatalf("a transaction of another database held the pass: %+v (%s)", p, deref(p.PauseReason))
	}
	if !scalar[bool](t, pool, `select exists (select from pg_stat_activity where pid = $1 and xact_start is not null)`, otherPID) {
		t.Fatal("the other database's transaction ended before the pass did: the test proves nothing")
	}

	own, _ := oldTransaction(t, pool, o.Health.TransactionAge)
	p = settleOrWait(t, pool, job, "beside its own database's transaction")
	if reason := deref(p.PauseReason); p.State != "waiting" || p.Rows != 0 ||
		!strings.Contains(reason, "a transaction open for") || !strings.Contains(reason, "(limit 300ms)") {
		t.Fatalf("a transaction of the pass's own database did not hold it: %+v (%s)", p, reason)
	}
	if err := own.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if p := awaitLedger(t, pool, p.RunID, func(p backfill.Pass) bool { return p.State == "done" }); p.Rows != 1000 {
		t.Fatalf("the released pass is %+v", p)
	}
}

// oldTransaction opens a transaction on pool that holds a transaction id,
// and answers it and its backend's pid once it is older than age, so that
// a pass's first look already finds it past the limit.
func oldTransaction(t *testing.T, pool *pgxpool.Pool, age time.Duration) (pgx.Tx, int) {
	t.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback(ctx) })
	var pid int
	if err := tx.QueryRow(ctx, `select pg_backend_pid() from (select txid_current()) x`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	for !scalar[bool](t, pool, `select clock_timestamp() - xact_start > $2 from pg_stat_activity where pid = $1`, pid, age) {
		time.Sleep(10 * time.Millisecond)
	}
	return tx, pid
}

// settleOrWait enqueues a pass labelled label and answers its ledger row
// once it is done or waits.
func settleOrWait(t *testing.T, pool *pgxpool.Pool, job *pipeline.Job[Req, backfill.Result], label string) backfill.Pass {
	t.Helper()
	res, err := job.Enqueue(context.Background(), pool, Req{Label: label})
	if err != nil {
		t.Fatal(err)
	}
	return awaitLedger(t, pool, res.RunID, func(p backfill.Pass) bool { return p.State == "done" || p.State == "waiting" })
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
