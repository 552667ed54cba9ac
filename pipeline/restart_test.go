package pipeline_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// PostgreSQL restarted under load, then gone for a while, costs nothing:
// every run ends done on its first attempt with its effect once, nothing is
// dead-lettered, and the worker logs the outage once each way. Gone for 20
// seconds under the default 30 s lease; and gone for longer than the lease,
// when the worker gives up the leases it could not renew (cancelling the
// bodies, as it must: another worker might take them) and, finding once the
// database is back that no claim took them, hands the runs back uncounted.
func TestARestartAndAnOutageUnderLoadCostNothing(t *testing.T) {
	for _, c := range []struct {
		name   string
		lease  time.Duration
		outage time.Duration
	}{
		{"a 20 s outage", 0, 20 * time.Second},
		{"an outage longer than the lease", 2 * time.Second, 4 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) { restartUnderLoad(t, c.lease, c.outage) })
	}
}

func restartUnderLoad(t *testing.T, lease, outage time.Duration) {
	ctx := context.Background()
	srv := fixtures.RestartableServer(t)
	pool := poolWith(t, srv.DBURL(t), `create table effects (id text primary key)`)
	const runs = 400
	job := faultJob("restarted")
	enqueueFaultRuns(t, pool, job, runs)
	logs := &logRecorder{}
	// Slow bodies keep runs in flight when the faults land: past the lease,
	// when there is one.
	nap := 300 * time.Millisecond
	if lease > 0 {
		nap = 2 * lease
	}
	slow := pipeline.MustJob("restarted-slow", keyK, func(ctx context.Context, _ *pipeline.Run[noInput]) (int, error) {
		return pipeline.Step(ctx, "nap", func(ctx context.Context) (int, error) {
			select {
			case <-ctx.Done():
			case <-time.After(nap):
			}
			return 1, nil
		})
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: 10 * time.Millisecond}})
	w := startWorker(t, pool, pipeline.WorkerConfig{Queues: map[string]int{pipeline.DefaultQueue: 16}, Lease: lease, Logger: slog.New(logs)}, job, slow)

	awaitSettledCount(t, pool, runs/8)
	slowRunning(t, pool, slow, "r", 10)
	srv.Restart(t)
	awaitSettledCount(t, pool, runs/3)
	slowRunning(t, pool, slow, "s", 10)
	srv.Stop(t)
	time.Sleep(outage)
	srv.Start(t)
	awaitSettledCount(t, pool, runs+20)

	var done, firstAttempt, effects int
	if err := pool.QueryRow(ctx, `select count(*) filter (where state = 'done'), count(*) filter (where attempt = 1),
		(select count(*) from effects) from pipe.jobs`).Scan(&done, &firstAttempt, &effects); err != nil {
		t.Fatal(err)
	}
	if done != runs+20 || firstAttempt != runs+20 || effects != runs {
		t.Fatalf("done %d, on their first attempt %d (of %d), effects %d (of %d)", done, firstAttempt, runs+20, effects, runs)
	}
	if w.Stats().DeadLettered.Load() != 0 || w.Stats().Retried.Load() != 0 {
		t.Fatalf("dead %d, retried %d", w.Stats().DeadLettered.Load(), w.Stats().Retried.Load())
	}
	for _, event := range []string{"jobs.database.unavailable", "jobs.database.available"} {
		if n := logs.count(event); n < 1 || n > 2 {
			t.Errorf("%s logged %d times; want once per fault", event, n)
		}
	}
	if lease > 0 && outage > lease && w.Stats().LeasesLost.Load() == 0 {
		t.Error("no lease was given up in an outage longer than the lease: the test proved nothing")
	}
}

// slowRunning enqueues n slow runs and waits until they run.
func slowRunning(t *testing.T, pool *pgxpool.Pool, slow *pipeline.Job[noInput, int], prefix string, n int) {
	t.Helper()
	for i := range n {
		if _, err := slow.Enqueue(context.Background(), pool, noInput{K: prefix + time.Duration(i).String()}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(time.Minute)
	for {
		var running int
		if err := pool.QueryRow(context.Background(), `select count(*) from pipe.jobs where name = $1 and state = 'running'`, slow.Name()).Scan(&running); err != nil {
			t.Fatal(err)
		}
		if running >= n/2 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d slow runs running after a minute", running)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// awaitSettledCount waits, through faults, until n runs have settled.
func awaitSettledCount(t *testing.T, pool *pgxpool.Pool, n int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var settled int
		err := pool.QueryRow(context.Background(), `select count(*) from pipe.jobs where state not in ('ready', 'delayed', 'running', 'suspended')`).Scan(&settled)
		if err == nil && settled >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d runs settled after 3 minutes (%v)", settled, n, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two schedulers ride out a restart of PostgreSQL and a stop across an
// occurrence: the leader keeps or re-takes its lease, and every occurrence
// fires exactly once — the one due while the database was gone, late.
func TestSchedulersRideOutARestart(t *testing.T) {
	srv := fixtures.RestartableServer(t)
	pool := srv.DB(t)
	clk := newSchedClock(t0)
	task := tickTask(t, "five", "*/5 * * * *", "UTC")
	a := startScheduler(t, pool, clk, "a", nil, task)
	b := startScheduler(t, pool, clk, "b", nil, task)
	clk.step(t, 2, 12, time.Minute)
	srv.Restart(t)
	clk.step(t, 2, 12, time.Minute)
	srv.Stop(t)
	clk.step(t, 2, 4, time.Minute) // an occurrence falls due while the database is gone
	srv.Start(t)
	clk.step(t, 2, 14, time.Minute)
	if !a.Leading() && !b.Leading() {
		t.Fatal("no scheduler leads after the database came back")
	}
	if got, want := firedAts(t, pool, "five"), everyFive(t0, clk.Now()); !sameInstants(got, want) {
		t.Fatalf("fired %v\nwant %v", got, want)
	}
}
