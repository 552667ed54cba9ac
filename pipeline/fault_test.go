package pipeline_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type faultIn struct {
	ID string `json:"id"`
}

// faultJob is three steps around one exactly-once database effect: a plain
// step, a StepTx inserting the run's row into effects, and a plain step.
func faultJob(name string) *pipeline.Job[faultIn, int] {
	return pipeline.MustJob(name, func(in faultIn) string { return in.ID },
		func(ctx context.Context, run *pipeline.Run[faultIn]) (int, error) {
			if _, err := pipeline.Step(ctx, "before", func(context.Context) (int, error) { return 1, nil }); err != nil {
				return 0, err
			}
			if _, err := pipeline.StepTx(ctx, "effect", func(ctx context.Context, tx pgx.Tx) (int, error) {
				_, err := tx.Exec(ctx, `insert into effects (id) values ($1)`, run.Input.ID)
				return 1, err
			}); err != nil {
				return 0, err
			}
			_, err := pipeline.Step(ctx, "after", func(context.Context) (int, error) { return 2, nil })
			return run.Attempt, err
		}, pipeline.JobOptions[faultIn, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: 10 * time.Millisecond, MaxDelay: 50 * time.Millisecond}})
}

// poolWith answers a pool on url, closed when the test ends, after running
// ddl through it.
func poolWith(t *testing.T, url, ddl string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(context.Background(), ddl); err != nil {
		t.Fatal(err)
	}
	return pool
}

// enqueueFaultRuns enqueues n runs of job, one per effect id.
func enqueueFaultRuns(t *testing.T, pool *pgxpool.Pool, job *pipeline.Job[faultIn, int], n int) {
	t.Helper()
	ins := make([]faultIn, n)
	for i := range ins {
		ins[i] = faultIn{ID: time.Duration(i).String()}
	}
	if _, err := job.EnqueueMany(context.Background(), pool, ins); err != nil {
		t.Fatal(err)
	}
}

// terminator ends every other backend of the test database each time
// progress has advanced by step (fixtures.FaultOnProgress), as a failover
// or an operator's pg_terminate_backend would, until stopped; stop answers
// how many backends it ended. The beat follows the work, not the clock, so
// a slow machine sees as many faults per run as a fast one.
func terminator(t *testing.T, url string, step int64, progress func() int64) (stop func() int64) {
	t.Helper()
	conn := bystander(t, url)
	var ended atomic.Int64
	stopBeat := fixtures.FaultOnProgress(step, progress, func() {
		var n int64
		_ = conn.QueryRow(context.Background(), `select count(pg_terminate_backend(pid)) from pg_stat_activity
			where datname = current_database() and application_name <> 'bystander'`).Scan(&n)
		ended.Add(n)
	})
	return func() int64 {
		stopBeat()
		_ = conn.Close(context.Background())
		return ended.Load()
	}
}

// settledBy answers the runs w has settled or heard were settled: the
// progress a fault beat follows.
func settledBy(w *pipeline.Worker) func() int64 {
	return func() int64 { return w.Stats().Completed.Load() + w.Stats().Unowned.Load() }
}

// Backends terminated again and again under load — mid-step, mid-StepTx,
// mid-batched journal write, mid-settle, the LISTEN session — cost no run an
// attempt: every run ends done on its first attempt, its effect exactly
// once, nothing dead-lettered; the cut runs were handed back uncounted.
func TestTerminatedBackendsCostNoAttempts(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DirectURL(t, fixtures.DBURL(t)) // its faults end server sessions, which a pooler would hide
	pool := poolWith(t, url, `create table effects (id text primary key)`)
	const runs = 300
	job := faultJob("terminated")
	enqueueFaultRuns(t, pool, job, runs)
	w := startWorker(t, pool, pipeline.WorkerConfig{Queues: map[string]int{pipeline.DefaultQueue: 32}}, job)
	stop := terminator(t, url, 5, settledBy(w)) // about 60 rounds of every backend ended
	check := bystander(t, url)
	defer check.Close(ctx)
	deadline := time.Now().Add(3 * time.Minute)
	for settledRuns(t, check) < runs {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d runs settled after 3 minutes", settledRuns(t, check), runs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	ended := stop()
	var done, firstAttempt, effects, handedBack int
	if err := check.QueryRow(ctx, `select count(*) filter (where state = 'done'), count(*) filter (where attempt = 1),
		(select count(*) from effects), (select count(*) from pipe.events where kind = 'interrupted')
		from pipe.jobs`).Scan(&done, &firstAttempt, &effects, &handedBack); err != nil {
		t.Fatal(err)
	}
	if done != runs || firstAttempt != runs || effects != runs {
		t.Fatalf("done %d, on their first attempt %d, effects %d; want %d each", done, firstAttempt, effects, runs)
	}
	if ended == 0 || handedBack == 0 {
		t.Fatalf("%d backends ended, %d runs handed back: the test cut nothing", ended, handedBack)
	}
	if w.Stats().DeadLettered.Load() != 0 || w.Stats().Retried.Load() != 0 {
		t.Fatalf("dead %d retried %d", w.Stats().DeadLettered.Load(), w.Stats().Retried.Load())
	}
	t.Logf("%d backends ended, %d runs handed back uncounted", ended, handedBack)
}

// bystander is a connection the terminator spares.
func bystander(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["application_name"] = "bystander"
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

func settledRuns(t *testing.T, conn *pgx.Conn) int {
	t.Helper()
	var n int
	for range 3 {
		if err := conn.QueryRow(context.Background(), `select count(*) from pipe.jobs where state not in ('ready', 'delayed', 'running', 'suspended')`).Scan(&n); err == nil {
			return n
		}
	}
	t.Fatal("the check connection failed")
	return 0
}

// A long-lived body committing batches through FencedTx, its position in
// the status document of the same transaction, loses nothing and doubles
// nothing while its backends are terminated: each batch lands once.
func TestTerminatedBackendsMidFencedTx(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DirectURL(t, fixtures.DBURL(t)) // its faults end server sessions, which a pooler would hide
	pool := poolWith(t, url, `create table batches (n int primary key)`)
	const batches = 100
	var written atomic.Int64 // batches the body saw committed: the fault beat's progress
	job := pipeline.MustJob("fenced-batches", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		var at tally
		if _, err := pipeline.StoredStatus(ctx, &at); err != nil {
			return 0, err
		}
		for at.Writes < batches {
			next := tally{Writes: at.Writes + 1}
			if err := pipeline.FencedTx(ctx, func(ctx context.Context, tx pgx.Tx) (any, error) {
				// 10 ms a batch: the terminator, which ends backends
				// after every 8 batches, most often finds the body
				// mid-transaction.
				_, err := tx.Exec(ctx, `insert into batches (n) select $1 from pg_sleep(0.01)`, next.Writes)
				return next, err
			}); err != nil {
				return 0, err
			}
			at = next
			written.Store(int64(at.Writes))
		}
		return run.Attempt, nil
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: 10 * time.Millisecond}})
	res, err := job.Enqueue(ctx, pool, noInput{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	stop := terminator(t, url, 8, written.Load)
	startWorker(t, pool, pipeline.WorkerConfig{}, job)
	check := bystander(t, url)
	defer check.Close(ctx)
	deadline := time.Now().Add(2 * time.Minute)
	for settledRuns(t, check) < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the run did not settle in 2 minutes")
		}
		time.Sleep(50 * time.Millisecond)
	}
	ended := stop()
	d, err := pipeline.NewAdmin(check).Show(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rows, distinct int
	if err := check.QueryRow(ctx, `select count(*), max(n) from batches`).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if d.State != "done" || d.Attempt != 1 || rows != batches || distinct != batches {
		t.Fatalf("state %s attempt %d (%+v), %d batches up to %d; want done on attempt 1 with %d", d.State, d.Attempt, d.LastError, rows, distinct, batches)
	}
	if ended == 0 {
		t.Fatal("the test ended no backend")
	}
}

// Every connection cut again and again under a work-down — a claim whose
// answer is lost, a completion batch whose commit landed but whose answer
// did not — costs no run an attempt and leaves none to wait out its lease:
// each is done once on its first attempt, and the worker heard every one.
func TestCutConnectionsUnderWorkDown(t *testing.T) {
	ctx := context.Background()
	pool, proxy := fixtures.FaultyDB(t)
	const runs = 2000
	job := pipeline.MustJob("cut", keyK, func(context.Context, *pipeline.Run[noInput]) (int, error) { return 1, nil })
	ins := make([]noInput, runs)
	for i := range ins {
		ins[i] = noInput{K: time.Duration(i).String()}
	}
	for lo := 0; lo < runs; lo += 1000 {
		if _, err := job.EnqueueMany(ctx, pool, ins[lo:lo+1000]); err != nil {
			t.Fatal(err)
		}
	}
	logs := &logRecorder{}
	w := startWorker(t, pool, pipeline.WorkerConfig{Queues: map[string]int{pipeline.DefaultQueue: 200}, Logger: slog.New(logs)}, job)
	// A cut of every connection after each 25 runs settled: about 80 cuts,
	// each followed by real work whatever the machine's pace.
	stop := fixtures.FaultOnProgress(25, settledBy(w), func() { proxy.Cut() })
	deadline := time.Now().Add(2 * time.Minute)
	for w.Stats().Completed.Load()+w.Stats().Unowned.Load() < runs {
		if time.Now().After(deadline) {
			stop()
			rows, _ := pool.Query(ctx, `select state, attempt, count(*) from pipe.jobs group by 1, 2`)
			for rows.Next() {
				var st string
				var a, n int
				_ = rows.Scan(&st, &a, &n)
				t.Logf("state %s attempt %d: %d", st, a, n)
			}
			rows.Close()
			logs.mu.Lock()
			seen := map[string]int{}
			for _, e := range logs.events {
				seen[e]++
			}
			logs.mu.Unlock()
			t.Logf("logs %v; stats %+v", seen, w.Stats())
			t.Fatalf("%d of %d completed after 2 minutes (cuts %d)", w.Stats().Completed.Load(), runs, proxy.Cuts())
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	// Every connection the pool holds may have been cut by the last cut
	// (as many as it has, more than any fixed number of tries): read on
	// fresh ones.
	pool.Reset()
	var done, first int
	if err := pool.QueryRow(ctx, `select count(*) filter (where state = 'done'), count(*) filter (where attempt = 1) from pipe.jobs`).Scan(&done, &first); err != nil {
		t.Fatal(err)
	}
	if done != runs || first != runs || w.Stats().Completed.Load() != runs || logs.has("jobs.lease.lost") {
		t.Fatalf("done %d, first attempt %d, completed %d of %d; lease lost %v", done, first, w.Stats().Completed.Load(), runs, logs.has("jobs.lease.lost"))
	}
	if proxy.Cuts() == 0 {
		t.Fatal("nothing was cut")
	}
	t.Logf("%d connections cut; %d claims recovered", proxy.Cuts(), logs.count("jobs.claim.recovered"))
}
