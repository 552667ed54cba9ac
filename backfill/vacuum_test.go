package backfill_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/fixtures"
)

// A VACUUM that is not FULL holds back no other vacuum (PostgreSQL leaves
// it out of their horizon), so the long-transaction check does not count
// it, however long it has run: here one waits on a lock past the limit and
// the pass runs to the end beside it. A VACUUM FULL does hold the horizon,
// and holds the pass.
func TestAVacuumHoldsNoPassAndAVacuumFullDoes(t *testing.T) {
	pool := setup(t, 1000)
	ctx := context.Background()
	exec(t, pool, `create table vac_target (x int)`)
	exec(t, pool, `insert into vac_target select generate_series(1, 100)`)
	o := fillOptions()
	o.Health = backfill.Health{TransactionAge: 300 * time.Millisecond, Every: 10 * time.Millisecond}
	o.Poll = 50 * time.Millisecond
	job := mustNew(t, "test.fill", o)
	fixtures.StartWorker(t, pool, job)

	// The lock holder has neither a transaction id nor a snapshot: the check
	// does not count it either way.
	// They run on connections of their own, so that the worker keeps its
	// pool.
	holder, err := fixtures.SessionConn(t, pool).Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback(ctx)
	if _, err := holder.Exec(ctx, `lock table vac_target in share update exclusive mode`); err != nil {
		t.Fatal(err)
	}
	vacuums := make(chan error, 2)
	vacuum := fixtures.SessionConn(t, pool)
	go func() { _, err := vacuum.Exec(ctx, `vacuum vac_target`); vacuums <- err }()
	awaitWaitingVacuum(t, pool, `vacuum vac_target`, o.Health.TransactionAge)

	p := settleOrWait(t, pool, job, "beside a vacuum")
	if p.State != "done" || p.Rows != 1000 {
		t.Fatalf("a waiting VACUUM held the pass: %+v (%s)", p, deref(p.PauseReason))
	}
	if !scalar[bool](t, pool, `select exists (select from pg_stat_activity where query = 'vacuum vac_target' and state = 'active')`) {
		t.Fatal("the VACUUM ended before the pass did: the test proves nothing")
	}

	full := fixtures.SessionConn(t, pool)
	go func() { _, err := full.Exec(ctx, `vacuum full vac_target`); vacuums <- err }()
	awaitWaitingVacuum(t, pool, `vacuum full vac_target`, o.Health.TransactionAge)
	p = settleOrWait(t, pool, job, "beside a vacuum full")
	if reason := deref(p.PauseReason); p.State != "waiting" || !strings.Contains(reason, "a transaction open for") {
		t.Fatalf("a waiting VACUUM FULL did not hold the pass: %+v (%s)", p, reason)
	}

	if err := holder.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := <-vacuums; err != nil {
			t.Fatal(err)
		}
	}
	if p := awaitLedger(t, pool, p.RunID, func(p backfill.Pass) bool { return p.State == "done" }); p.State != "done" {
		t.Fatalf("the released pass is %+v", p)
	}
}

// awaitWaitingVacuum waits until the session running query waits on a lock
// holding a snapshot, its transaction older than age: a session the check
// would count as a long transaction were it not a VACUUM.
func awaitWaitingVacuum(t *testing.T, pool *pgxpool.Pool, query string, age time.Duration) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !scalar[bool](t, pool, `select exists (select from pg_stat_activity
		where query = $1 and wait_event_type = 'Lock' and backend_xmin is not null
		  and clock_timestamp() - xact_start > $2)`, query, age) {
		if time.Now().After(deadline) {
			t.Fatalf("%q never waited on the lock with a snapshot past %v", query, age)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
