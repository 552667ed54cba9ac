package pipeline_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// An operator's cancel that waits on a run a worker is settling at that
// moment answers for the settled run (not cancellable: it ended), not with
// PostgreSQL's "tuple moved to another partition" (40001): the settle moved
// the run from the open runs to a finished partition under the cancel's
// lock.
func TestACancelRacingASettleAnswersForTheSettledRun(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	if _, err := pipeline.EnsurePartitions(ctx, pool); err != nil {
		t.Fatal(err)
	}
	j := pipeline.MustJob("moved", keyK, func(context.Context, *pipeline.Run[noInput]) (int, error) { return 0, nil })
	res, err := j.Enqueue(ctx, pool, noInput{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	settle, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = settle.Rollback(ctx) }()
	if _, err := settle.Exec(ctx, `update pipe.runs set state = 'done', finished_at = now() where id = $1`, res.ID); err != nil {
		t.Fatal(err)
	}
	cancelled := make(chan error, 1)
	go func() { cancelled <- pipeline.NewAdmin(pool).Cancel(ctx, res.ID, "test") }()
	awaitLockWait(t, pool)
	if err := settle.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-cancelled; !errors.Is(err, errcode.JobNotCancellable) {
		t.Fatalf("a cancel racing a settle answered %v; want %s", err, errcode.JobNotCancellable)
	}
	if d := awaitState(t, pool, res.ID, "done"); d.State != "done" {
		t.Fatalf("the run is %s", d.State)
	}
}

// awaitLockWait waits until a session of the test's database waits on a
// lock.
func awaitLockWait(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	waitUntil(t, "a session waiting on a lock", func() bool {
		return scalar[bool](t, pool, `select exists (select from pg_stat_activity
			where datname = current_database() and wait_event_type = 'Lock')`)
	})
}
