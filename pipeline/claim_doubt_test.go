package pipeline_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A claim whose rows were sent and whose commit is slow — a WAL flush on a
// loaded server — is cut off from its worker and commits after the
// worker's first look for what it gave (20 ms after the loss): the worker
// keeps looking, hands the run back uncounted once the claim has
// committed, and the run is done on its first attempt — not after its
// 30 s lease lapsed, with an attempt spent (a CI run's bench: 9 runs of
// 3,531). A deferred trigger sleeps 500 ms in the claim's commit, deaf
// to every cancel as a WAL flush is — pgx sends one, or more, when it
// closes the cut connection, and a cancel that ended the sleep aborted the
// claim, which the worker then claimed afresh — and the cut comes while it
// sleeps.
func TestAClaimThatCommitsAfterItsCutCostsNoAttempt(t *testing.T) {
	ctx := context.Background()
	pool, proxy := fixtures.FaultyDB(t)
	owner := fixtures.Owner(t, pool)
	if _, err := owner.Exec(ctx, `
		create function public.slow_claim() returns trigger language plpgsql as
			$$ declare
				until timestamptz := clock_timestamp() + interval '500 milliseconds';
			begin
				while clock_timestamp() < until loop
					begin perform pg_sleep(extract(epoch from until - clock_timestamp()));
					exception when query_canceled then null; -- as a WAL flush, deaf to every cancel pgx sends
					end;
				end loop;
				return new;
			end $$;
		create constraint trigger slow_claim after update on pipe.runs_open deferrable initially deferred
			for each row when (old.state = 'ready' and new.state = 'running') execute function public.slow_claim()`); err != nil {
		t.Fatal(err)
	}
	job := pipeline.MustJob("doubt", keyK, func(context.Context, *pipeline.Run[noInput]) (int, error) { return 1, nil })
	res, err := job.Enqueue(ctx, pool, noInput{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	logs := &logRecorder{}
	startWorker(t, pool, pipeline.WorkerConfig{Logger: slog.New(logs)}, job)
	awaitTrue(t, 10*time.Second, "the claim to sleep in its trigger", func() bool {
		var n int
		err := owner.QueryRow(ctx, `select count(*) from pg_stat_activity
			where datname = current_database() and wait_event = 'PgSleep'`).Scan(&n)
		return err == nil && n > 0
	})
	if proxy.Cut() == 0 {
		t.Fatal("nothing was cut")
	}
	awaitTrue(t, 10*time.Second, "the run to be done", func() bool {
		d, err := pipeline.NewAdmin(pool).Show(ctx, res.ID)
		return err == nil && d.State == pipeline.StateDone
	})
	d, err := pipeline.NewAdmin(pool).Show(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Attempt != 1 || !logs.has("jobs.claim.recovered") {
		t.Fatalf("done on attempt %d; the lost claim recovered: %v; journal %v; logs %v", d.Attempt, logs.has("jobs.claim.recovered"), kinds(d), logs.events)
	}
}

// awaitTrue waits up to within for ok, failing the test naming what, and
// takes an error of ok's reads as not yet (a connection the cut closed).
func awaitTrue(t *testing.T, within time.Duration, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", within, what)
		}
	}
}
