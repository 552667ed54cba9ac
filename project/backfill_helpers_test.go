package project_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/project"
)

// openTransaction opens a transaction on pool that holds a transaction id
// and answers it once it is older than age.
func openTransaction(t *testing.T, pool *pgxpool.Pool, age time.Duration) pgx.Tx {
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
	for aged := false; !aged; time.Sleep(10 * time.Millisecond) {
		if err := pool.QueryRow(ctx, `select clock_timestamp() - xact_start > $2 from pg_stat_activity where pid = $1`, pid, age).Scan(&aged); err != nil {
			t.Fatal(err)
		}
	}
	return tx
}

// enqueuePass enqueues a pass of the file's backfill name and answers its
// run's id.
func enqueuePass(t *testing.T, p *project.Project, pool *pgxpool.Pool, name string) string {
	t.Helper()
	d, ok := p.Lookup(name)
	if !ok || d.Backfill == nil {
		t.Fatalf("the file declares no backfill %s", name)
	}
	res, err := d.Backfill.Enqueue(context.Background(), pool, backfill.Request{})
	if err != nil {
		t.Fatal(err)
	}
	return res.RunID
}

// awaitPass waits until the pass of runID is in state, for at most a
// minute, and answers its ledger row.
func awaitPass(t *testing.T, pool *pgxpool.Pool, runID, state string) backfill.Pass {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		p, err := backfill.Show(context.Background(), pool, runID)
		if err == nil && p.State == state {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pass is not %s: %+v (%v, %s)", state, p, err, deref(p.PauseReason))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
