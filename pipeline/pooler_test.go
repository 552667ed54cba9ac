package pipeline_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// bouncedPool answers a pool through the kit's PgBouncer (transaction
// pooling) on a database of the test's own, and that database's direct
// URL. rawQuery, when given, replaces the pooled URL's query string.
func bouncedPool(t *testing.T, rawQuery string) (*pgxpool.Pool, string) {
	t.Helper()
	direct := fixtures.DBURL(t)
	if fixtures.Pooled() {
		direct = fixtures.DirectURL(t, direct)
	}
	pooled := fixtures.PgBouncerURL(t, direct)
	if rawQuery != "" {
		pooled = pooled[:strings.Index(pooled, "?")+1] + rawQuery
	}
	pool, err := pgxpool.New(context.Background(), pooled)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool, direct
}

// The probe tells a transaction pooler from a server: PgBouncer in
// transaction mode is one, the server itself is not, whatever the load of
// the server's other clients.
func TestTransactionPooledTellsPgBouncerFromTheServer(t *testing.T) {
	ctx := context.Background()
	pool, direct := bouncedPool(t, "")
	for range 5 {
		pooled, err := pipeline.TransactionPooled(ctx, pool.Config().ConnConfig)
		if err != nil || !pooled {
			t.Fatalf("through PgBouncer: pooled %v, %v; want true", pooled, err)
		}
		cfg, err := pgx.ParseConfig(direct)
		if err != nil {
			t.Fatal(err)
		}
		if pooled, err := pipeline.TransactionPooled(ctx, cfg); err != nil || pooled {
			t.Fatalf("straight to the server: pooled %v, %v; want false", pooled, err)
		}
	}
}

// The probe tells a busy transaction pooler too. Another client that gives
// its server back just after the probe's first read puts that server first
// in PgBouncer's line: the probe's second client is handed it rather than
// the one the first gave back, and, the line being last-in first-out, is
// handed it again each round while the first client keeps its own. Three
// such rounds made the probe answer false one time in four in a worker's
// start (pipe worker's own probe, then the worker's, disagreed).
func TestTransactionPooledTellsAPgBouncerAnotherClientUses(t *testing.T) {
	ctx := context.Background()
	pool, _ := bouncedPool(t, "")
	cfg := pool.Config().ConnConfig.Copy()
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	for i := range 10 {
		other, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := other.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "select 1"); err != nil { // holds a server
			t.Fatal(err)
		}
		release := func() {
			if err := tx.Commit(ctx); err != nil {
				t.Error(err)
			}
		}
		pooled, err := pipeline.ProbePooledWith(ctx, pool.Config().ConnConfig, release)
		_ = other.Close(ctx)
		if err != nil || !pooled {
			t.Fatalf("probe %d, another client's server given back after its first read: pooled %v, %v; want true", i, pooled, err)
		}
	}
}

// Behind a transaction pooler a worker runs every run to done, polling: it
// says at start that its wake is off and what to set. Given a direct URL
// for its wake, it listens there and the wake is proven.
func TestAWorkerBehindPgBouncerRunsItsRuns(t *testing.T) {
	ctx := context.Background()
	pool, direct := bouncedPool(t, "")
	j := payloadJob("bounced")
	logs := &logRecorder{}
	reg, err := pipeline.NewRegistry(j)
	if err != nil {
		t.Fatal(err)
	}
	// not startWorker: it gives the wake a direct URL when the tests run through PgBouncer
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, PollInterval: 10 * time.Millisecond,
		IdlePollMax: 50 * time.Millisecond, Logger: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Shutdown(context.Background()) })
	logs.await(t, "jobs.wake.off")
	var ids []string
	for i := range 50 {
		res, err := j.Enqueue(ctx, pool, payload{K: fmt.Sprint("k", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	for _, id := range ids {
		awaitState(t, pool, id, "done")
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.runs where state = 'done' and attempt = 1`); n != 50 {
		t.Fatalf("%d of 50 runs done on their first attempt", n)
	}

	listen, err := pgx.ParseConfig(direct)
	if err != nil {
		t.Fatal(err)
	}
	woken := &logRecorder{}
	startWorker(t, pool, pipeline.WorkerConfig{ListenConfig: listen, Logger: slog.New(woken)}, payloadJob("bounced-woken"))
	woken.await(t, "jobs.wake.live")
	if woken.has("jobs.wake.off") {
		t.Fatal("a worker with a ListenConfig said its wake is off")
	}
}

// A pool that names prepared statements behind a transaction pooler is
// refused when the worker starts: it would fail at random, as the pooler
// hands its next transaction to a server that never saw the statement.
func TestAWorkerRefusesPreparedStatementsBehindPgBouncer(t *testing.T) {
	pool, _ := bouncedPool(t, "sslmode=disable&default_query_exec_mode=cache_statement")
	reg, err := pipeline.NewRegistry(payloadJob("refused"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Start(context.Background())
	if e, ok := errcode.As(err); !ok || e.Code != errcode.ConfigInvalid || !strings.Contains(e.Fix, "default_query_exec_mode=cache_describe") {
		_ = w.Shutdown(context.Background())
		t.Fatalf("Start answered %v; want X_CONFIG_INVALID naming default_query_exec_mode", err)
	}
}

// Retention through a transaction pooler detaches in a transaction: the
// session lock of a concurrent detach would be taken on one server and
// released on another. The expired day is dropped all the same.
func TestRetentionThroughPgBouncerDropsTheExpiredDay(t *testing.T) {
	ctx := context.Background()
	pool, _ := bouncedPool(t, "")
	for _, p := range partitionsOf(t, pool, "") { // as partitionPool: the days of the frozen clock's are made below
		if _, err := pool.Exec(ctx, `drop table `+pgx.Identifier{"pipe", p.name}.Sanitize()); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	clock := fixtures.FreezeClock(t, pool, start)
	if _, err := pipeline.EnsurePartitions(ctx, pool); err != nil {
		t.Fatal(err)
	}
	res, err := churnJob().Enqueue(ctx, pool, noInput{K: "cancelled"})
	if err != nil {
		t.Fatal(err)
	}
	if err := pipeline.NewAdmin(pool).Cancel(ctx, res.ID, "test"); err != nil {
		t.Fatal(err)
	}
	if !hasPartition(t, pool, "runs_done_20260302") {
		t.Fatal("no partition for the cancelled run's day")
	}
	clock.Advance(t, 3*24*time.Hour)
	m, err := pipeline.Maintain(ctx, pool, pipeline.Retention{Done: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if hasPartition(t, pool, "runs_done_20260302") || m.Purged != 1 {
		t.Fatalf("after the pass: day kept %v, purged %d; want the day dropped, 1 purged", hasPartition(t, pool, "runs_done_20260302"), m.Purged)
	}
	if n := scalar[int64](t, pool, `select count(*) from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = current_database()`); n != 0 {
		t.Fatalf("the pass left %d advisory locks held on the pooler's servers", n)
	}
}
