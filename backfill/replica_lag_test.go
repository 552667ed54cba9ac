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

// A real standby whose replay is paused while the primary writes lags
// further each second: the pass waits before its first batch, saying a
// replica lags, and finishes once replay resumes.
func TestAPassWaitsWhileARealReplicaLags(t *testing.T) {
	pair := fixtures.Replicated(t)
	db := pair.DBs(t)
	pool, err := pgxpool.New(context.Background(), db.Primary)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	exec(t, pool, ordersDDL)
	exec(t, pool, `insert into orders (id, total) select g, g / 100.0 from generate_series(1, 1000) g`)
	exec(t, pool, `create table noise (at timestamptz not null default now())`)

	pair.PauseReplay(t)
	stop := writeEvery(t, pool, 50*time.Millisecond)
	defer stop()
	// The standby receives the writes and reports, each second, the
	// position it replayed: the lag the primary sees grows past the limit.
	for lagging := false; !lagging; time.Sleep(50 * time.Millisecond) {
		lagging = scalar[bool](t, pool, `select coalesce(max(replay_lag) > interval '1.5 seconds', false) from pg_stat_replication`)
	}
	res, p := waitingPass(t, pool, backfill.Health{ReplicationLag: time.Second})
	if p.Rows != 0 || p.PauseReason == nil || !strings.Contains(*p.PauseReason, "a replica lags") {
		t.Fatalf("the waiting pass is %+v", p)
	}
	time.Sleep(300 * time.Millisecond) // a waiting pass works no batch
	if q, _ := backfill.Show(context.Background(), pool, res.RunID); q.Rows != 0 || q.State != "waiting" {
		t.Fatalf("the pass went on while the replica lagged: %+v", q)
	}
	pair.ResumeReplay(t)
	if d := fixtures.AwaitSettled(t, pool, res.ID); d.State != "done" {
		t.Fatalf("the pass is %s", d.State)
	}
	assertEachOnce(t, pool, 1000)
}

// writeEvery inserts a row into noise every interval until stopped, so the
// primary keeps sending WAL.
func writeEvery(t *testing.T, pool *pgxpool.Pool, interval time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			_, _ = pool.Exec(ctx, `insert into noise default values`)
			select {
			case <-ctx.Done():
			case <-time.After(interval):
			}
		}
	}()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	t.Cleanup(stop)
	return stop
}
