package pipeline_test

import (
	"context"
	"log/slog"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A failover under load costs what a restart costs: nothing. The worker's
// URL names the primary and its standby with target_session_attrs=
// read-write; the primary is stopped with runs in flight and the standby
// promoted, and the worker carries on against the new primary: every run
// ends done on its first attempt with its effect once, nothing is
// dead-lettered or retried, and the worker logs the outage once each way.
func TestAFailoverToAPromotedStandbyCostsNothing(t *testing.T) {
	ctx := context.Background()
	pair := fixtures.ReplicatedOwn(t)
	db := pair.DBs(t)
	pool := poolWith(t, db.Failover, `create table effects (id text primary key)`)
	const runs = 300
	job := faultJob("failed-over")
	enqueueFaultRuns(t, pool, job, runs)
	logs := &logRecorder{}
	slow := pipeline.MustJob("failed-over-slow", keyK, func(ctx context.Context, _ *pipeline.Run[noInput]) (int, error) {
		return pipeline.Step(ctx, "nap", func(ctx context.Context) (int, error) {
			select {
			case <-ctx.Done():
			case <-time.After(300 * time.Millisecond):
			}
			return 1, nil
		})
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: 10 * time.Millisecond}})
	// Passes at least every 50 ms, so that one meets the outage: at the
	// idle wait's 2 s ceiling the stop and the promotion fell between two
	// passes, and the outage the test asserts was never seen (a CI run's
	// PgBouncer leg logged neither event).
	w := startWorker(t, pool, pipeline.WorkerConfig{Queues: map[string]int{pipeline.DefaultQueue: 16},
		PollInterval: 50 * time.Millisecond, IdlePollMax: 50 * time.Millisecond, Logger: slog.New(logs)}, job, slow)

	awaitSettledCount(t, pool, runs/4)
	slowRunning(t, pool, slow, "f", 10)
	pair.StopPrimary(t)
	// Promote once a claim pass has met the outage: on a loaded machine
	// (the least-privilege leg of a CI run) the stop and the promotion
	// fell between two passes even at 50 ms apart, and neither event was
	// logged.
	logs.await(t, "jobs.database.unavailable")
	pair.Promote(t)
	awaitSettledCount(t, pool, runs+10)

	var done, firstAttempt, effects int
	var recovery bool
	var port int
	if err := pool.QueryRow(ctx, `select count(*) filter (where state = 'done'), count(*) filter (where attempt = 1),
		(select count(*) from effects), pg_is_in_recovery(), inet_server_port() from pipe.jobs`).
		Scan(&done, &firstAttempt, &effects, &recovery, &port); err != nil {
		t.Fatal(err)
	}
	if _, standby, _ := net.SplitHostPort(pair.Standby().Addr()); recovery || strconv.Itoa(port) != standby {
		t.Fatalf("the pool reads port %d (in recovery: %v), not the promoted standby's %s", port, recovery, standby)
	}
	if done != runs+10 || firstAttempt != runs+10 || effects != runs {
		t.Fatalf("done %d, on their first attempt %d (of %d), effects %d (of %d)", done, firstAttempt, runs+10, effects, runs)
	}
	if w.Stats().DeadLettered.Load() != 0 || w.Stats().Retried.Load() != 0 {
		t.Fatalf("dead %d, retried %d", w.Stats().DeadLettered.Load(), w.Stats().Retried.Load())
	}
	// The last run may settle (its settle tried again on its own) before
	// the worker's next claim pass finds the database back and says so.
	logs.await(t, "jobs.database.available")
	for _, event := range []string{"jobs.database.unavailable", "jobs.database.available"} {
		if n := logs.count(event); n < 1 || n > 2 {
			t.Errorf("%s logged %d times; want once per fault", event, n)
		}
	}
}
