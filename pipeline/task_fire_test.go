package pipeline_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// fireSetup arms task at mark and gives holder the lease, with the database
// clock frozen at frozen.
func fireSetup(t *testing.T, pool *pgxpool.Pool, task string, mark, frozen time.Time, holder string) {
	t.Helper()
	steps := []struct {
		sql  string
		args []any
	}{
		{`insert into pipe.clock (frozen_at) values ($1)`, []any{frozen}},
		{`insert into pipe.task_state (task, last_occurrence) values ($1, $2)`, []any{task, mark}},
		{`insert into pipe.scheduler_leader (holder, acquired_at, expires_at) values ($1, $2, $2::timestamptz + interval '30 seconds')`, []any{holder, frozen}},
	}
	for _, s := range steps {
		if _, err := fixtures.Owner(t, pool).Exec(context.Background(), s.sql, s.args...); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFireStatementFiresAnOccurrenceOnce(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	task := tickTask(t, "once", "*/5 * * * *", "UTC")
	mark, at := utc(t, "2026-01-01T00:00:00Z"), utc(t, "2026-01-01T00:05:00Z")
	frozen := utc(t, "2026-01-01T00:05:01.5Z")
	fireSetup(t, pool, "once", mark, frozen, "leader")
	if hit, n, err := pipeline.FireTask(ctx, pool, "leader", task, mark, at); err != nil || !hit || n != 1 {
		t.Fatalf("first fire: hit %v, inserted %d, %v", hit, n, err)
	}
	// The same expected watermark again (a retry, a crash replay, a second
	// scheduler): nothing moves, nothing is inserted.
	if hit, n, err := pipeline.FireTask(ctx, pool, "leader", task, mark, at); err != nil || hit || n != 0 {
		t.Fatalf("second fire: hit %v, inserted %d, %v", hit, n, err)
	}
	if got := firedAts(t, pool, "once"); len(got) != 1 || !got[0].Equal(at) {
		t.Fatalf("fired %v", got)
	}
	var kinds []string
	if err := pool.QueryRow(ctx, `select array_agg(e.kind) from pipe.journal e join pipe.jobs j on j.id = e.job_id where j.name = 'once'`).Scan(&kinds); err != nil || len(kinds) != 1 || kinds[0] != "enqueued" {
		t.Fatalf("journal %v %v", kinds, err)
	}
	fires, err := pipeline.NewAdmin(pool).TaskFires(ctx)
	if err != nil || len(fires) != 1 || !fires[0].Occurrence.Equal(at) || !fires[0].FiredAt.Equal(frozen) {
		t.Fatalf("task fires %+v %v; want firedAt from the database clock %v", fires, err, frozen)
	}
}

func TestFireStatementRaceHasOneWinner(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	task := tickTask(t, "race", "*/5 * * * *", "UTC")
	mark, at := utc(t, "2026-01-01T00:00:00Z"), utc(t, "2026-01-01T00:05:00Z")
	fireSetup(t, pool, "race", mark, at, "leader")
	var wg sync.WaitGroup
	hits := make(chan bool, 8)
	for range 8 {
		wg.Go(func() {
			hit, _, err := pipeline.FireTask(ctx, pool, "leader", task, mark, at)
			if err != nil {
				t.Error(err)
			}
			hits <- hit
		})
	}
	wg.Wait()
	close(hits)
	won := 0
	for h := range hits {
		if h {
			won++
		}
	}
	if got := firedAts(t, pool, "race"); won != 1 || len(got) != 1 {
		t.Fatalf("%d fires won, %d jobs; want 1 and 1", won, len(got))
	}
}

func TestFireStatementRefusesFollowersAndPausedTasks(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	task := tickTask(t, "fenced", "*/5 * * * *", "UTC")
	mark, at := utc(t, "2026-01-01T00:00:00Z"), utc(t, "2026-01-01T00:05:00Z")
	fireSetup(t, pool, "fenced", mark, at, "leader")
	if hit, _, err := pipeline.FireTask(ctx, pool, "follower", task, mark, at); err != nil || hit {
		t.Fatalf("a follower fired: %v %v", hit, err)
	}
	if err := pipeline.NewAdmin(pool).PauseTask(ctx, "fenced"); err != nil {
		t.Fatal(err)
	}
	if hit, _, err := pipeline.FireTask(ctx, pool, "leader", task, mark, at); err != nil || hit {
		t.Fatalf("a paused task fired: %v %v", hit, err)
	}
	if got := firedAts(t, pool, "fenced"); len(got) != 0 {
		t.Fatalf("fired %v", got)
	}
}

func TestFireDedupesOntoALiveRun(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	job := tickJob(t, "constant-key")
	constant, err := pipeline.NewJob("constant", func(tick) string { return "only" },
		func(context.Context, *pipeline.Run[tick]) (struct{}, error) { return struct{}{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	task, err := pipeline.NewTask("dedupe", "*/5 * * * *", "UTC", []pipeline.TaskEntry{
		pipeline.Entry(constant, func(o pipeline.Occurrence) tick { return tick{At: o.At} }),
		tickEntry(job)[0],
	})
	if err != nil {
		t.Fatal(err)
	}
	m0, m1, m2 := utc(t, "2026-01-01T00:00:00Z"), utc(t, "2026-01-01T00:05:00Z"), utc(t, "2026-01-01T00:10:00Z")
	fireSetup(t, pool, "dedupe", m0, m1, "leader")
	if hit, n, err := pipeline.FireTask(ctx, pool, "leader", task, m0, m1); err != nil || !hit || n != 2 {
		t.Fatalf("first: %v %d %v", hit, n, err)
	}
	// The constant-key run is still live: the next occurrence queues only the
	// per-occurrence entry.
	if hit, n, err := pipeline.FireTask(ctx, pool, "leader", task, m1, m2); err != nil || !hit || n != 1 {
		t.Fatalf("second: %v %d %v", hit, n, err)
	}
}

type account struct {
	Org string    `json:"org"`
	At  time.Time `json:"at"`
}

// The fire writes the row an Enqueue of the same input writes, column for
// column — through the same statement: its enqueued transition is in the
// row, not a pipe.events row, and it carries the firing context's trace —
// so a scheduled run is capped, tenanted, journalled and retried like any
// other.
func TestFireWritesTheRowEnqueueWrites(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	job, err := pipeline.NewJob("sync-account", func(in account) string { return in.Org + "@" + in.At.Format(time.RFC3339) },
		func(context.Context, *pipeline.Run[account]) (struct{}, error) { return struct{}{}, nil },
		pipeline.JobOptions[account, struct{}]{
			Queue:       "accounts",
			Tenant:      func(in account) string { return in.Org },
			Retry:       &pipeline.Retry{Attempts: 7},
			Concurrency: &pipeline.Concurrency[account]{Limit: 1, Key: func(in account) string { return "org:" + in.Org }},
			Compensates: true,
		})
	if err != nil {
		t.Fatal(err)
	}
	task, err := pipeline.NewTask("accounts", "*/5 * * * *", "UTC", []pipeline.TaskEntry{
		pipeline.Entry(job, func(o pipeline.Occurrence) account { return account{Org: "acme", At: o.At} }),
	})
	if err != nil {
		t.Fatal(err)
	}
	mark, at := utc(t, "2026-01-01T00:00:00Z"), utc(t, "2026-01-01T00:05:00Z")
	fireSetup(t, pool, "accounts", mark, at, "leader")
	tp := sdktrace.NewTracerProvider()
	fireCtx, span := tp.Tracer("test").Start(ctx, "scheduler tick")
	defer span.End()
	if hit, n, err := pipeline.FireTask(fireCtx, pool, "leader", task, mark, at); err != nil || !hit || n != 1 {
		t.Fatalf("fire: %v %d %v", hit, n, err)
	}
	enqCtx, enqSpan := tp.Tracer("test").Start(ctx, "request")
	defer enqSpan.End()
	if _, err := job.Enqueue(enqCtx, pool, account{Org: "acme", At: at.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(ctx, `select row(queue, tenant, state, max_attempts, concurrency_key, run_id = id,
			octet_length(transitions), trace_parent like '00-%-01',
			(select count(*) from pipe.events e where e.job_id = j.id))::text
		from pipe.jobs j where name = 'sync-account'`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(got) != 2 || got[0] != got[1] {
		t.Fatalf("fired and enqueued rows differ: %v %v", got, err)
	}
	if want := "(accounts,acme,ready,9,org:acme,t,21,t,0)"; got[0] != want {
		t.Fatalf("row %s; want %s (one transition in the row, a trace parent, no events row)", got[0], want)
	}
}

// Task.Enqueue queues the task's entries for one occurrence in the
// caller's transaction — rolled back, nothing is queued — and moves no
// watermark.
func TestTaskEnqueueJoinsTheCallersTransaction(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	task := tickTask(t, "by-hand", "0 3 * * *", "UTC")
	at := utc(t, "2026-01-01T12:00:00Z")
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := task.Enqueue(ctx, tx, at); err != nil || n != 1 {
		t.Fatalf("Enqueue in a transaction: %d, %v", n, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countJobs(t, pool, "by-hand"); n != 0 {
		t.Fatalf("a rolled-back Enqueue left %d runs", n)
	}
	if n, err := task.Enqueue(ctx, pool, at); err != nil || n != 1 {
		t.Fatalf("Enqueue: %d, %v", n, err)
	}
	var marks int
	if err := pool.QueryRow(ctx, `select count(*) from pipe.task_state where task = 'by-hand'`).Scan(&marks); err != nil || marks != 0 {
		t.Fatalf("Enqueue wrote %d watermarks (%v)", marks, err)
	}
}
