package pipeline_test

// The upgrade of a database that held runs before migration 0022 (issue 26):
// built at version 21 from the released migration files, filled with runs
// as the previous release wrote them, then migrated and moved with workers
// and an enqueuer running, the move killed mid-batch and resumed.
//
// This is an external test (package pipeline_test), not an internal one:
// fixtures imports pipeline, so an internal test cannot use the fixtures.
// The migrations up to 21 are applied from the files on disk, as Migrate
// applied them then (see migrateFilesTo), which needs no internal hook.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// legacyNow is the database clock of the upgrade test: a Wednesday noon.
var legacyNow = time.Date(2026, 5, 20, 12, 0, 0, 0, time.UTC)

const (
	legacyFinished = 20_000
	legacyOpen     = 2_000
)

// migrateFilesTo migrates pool's empty database to version upTo as Migrate
// did when upTo was the newest migration: in one transaction, the
// migrations table as first released, each file applied and its version
// recorded, and then every version's checksum (migration 13 added the
// column).
func migrateFilesTo(t *testing.T, pool *pgxpool.Pool, upTo int) {
	t.Helper()
	ctx := context.Background()
	files, err := filepath.Glob("migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `create schema pipe;
			create table pipe.migrations (version integer primary key, name text not null,
				applied_at timestamptz not null default now())`); err != nil {
			return err
		}
		sums := map[int]string{}
		for _, f := range files {
			num, name, _ := strings.Cut(strings.TrimSuffix(filepath.Base(f), ".sql"), "_")
			v, err := strconv.Atoi(num)
			if err != nil {
				return err
			}
			if v > upTo {
				break
			}
			body, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return fmt.Errorf("apply %s: %w", f, err)
			}
			if _, err := tx.Exec(ctx, `insert into pipe.migrations (version, name) values ($1, $2)`, v, name); err != nil {
				return err
			}
			sum := sha256.Sum256([]byte(strings.ReplaceAll(string(body), "\r", "")))
			sums[v] = hex.EncodeToString(sum[:])
		}
		for v, sum := range sums {
			if _, err := tx.Exec(ctx, `update pipe.migrations set checksum = $2 where version = $1`, v, sum); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("migrate to %d: %v", upTo, err)
	}
	var newest int
	if err := pool.QueryRow(ctx, `select max(version) from pipe.migrations`).Scan(&newest); err != nil || newest != upTo {
		t.Fatalf("database at version %d (%v); want %d", newest, err, upTo)
	}
}

// fillLegacy writes, as version 21's release did, legacyFinished finished
// runs (done, dead, cancelled, failed in turn, finished over the 20 days
// before legacyNow; a third with a completed step "fetch" in pipe.events,
// the failed ones with their failure events, every one with its
// transitions in its row) and legacyOpen open runs: ready, delayed (a
// tenth of them due a minute after legacyNow), running under the lease of
// a worker that is gone (half lapsed, half lapsing a minute after
// legacyNow) and suspended; a quarter of them with a completed step
// "fetch". Every run is of the job legacy.work, keyed fin-N or open-N.
func fillLegacy(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	stmts := []string{
		`insert into pipe.jobs (id, run_id, name, queue, tenant, idem_key, input, state, attempt, max_attempts, claims,
			run_at, created_at, started_at, finished_at, has_steps, result, last_error, trace_parent, status, status_at,
			concurrency_key, transitions, sensitive)
		select id, case when g % 10 = 0 then gen_random_uuid() else id end, 'legacy.work', 'default',
			case when g % 7 = 0 then 'tenant-' || g % 3 else '' end,
			'fin-' || g, jsonb_build_object('k', 'fin-' || g),
			(array['done', 'dead', 'cancelled', 'failed'])[1 + g % 4], 1, 3, 1,
			f - interval '2 minutes', f - interval '3 minutes', f - interval '30 seconds', f,
			g % 3 = 0,
			case when g % 4 = 0 then to_jsonb('result-' || g) end,
			case when g % 4 in (1, 3) then jsonb_build_object('code', 'X_BOOM', 'message', 'boom ' || g) end,
			case when g % 11 = 0 then '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' end,
			case when g % 13 = 0 then jsonb_build_object('n', g) end,
			case when g % 13 = 0 then f - interval '1 minute' end,
			case when g % 17 = 0 then 'ck-' || g % 5 end,
			pipe.transition(1, 0, f - interval '3 minutes') || pipe.transition(2, 1, f - interval '30 seconds'),
			g % 19 = 0
		from (select g, gen_random_uuid() as id,
		             $1::timestamptz - (g / 4 % 20) * interval '1 day' - (g % 1440) * interval '1 minute' as f
		      from generate_series(1, $2::int) g) s`,
		`insert into pipe.jobs (id, run_id, name, queue, idem_key, input, state, attempt, max_attempts, claims,
			worker_id, lease_until, run_at, created_at, started_at, has_steps, last_error, transitions)
		select id, id, 'legacy.work', 'default', 'open-' || g, jsonb_build_object('k', 'open-' || g), st,
			case when st in ('running', 'delayed') then 1 else 0 end, 3,
			case when st in ('running', 'delayed') then 1 else 0 end,
			case when st = 'running' then 'old-host-1-' || g % 4 end,
			case when st = 'running' then $1::timestamptz + case when g % 2 = 0 then interval '-1 minute' else interval '1 minute' end end,
			case when st = 'delayed' and g % 20 = 4 then $1::timestamptz + interval '1 minute'
			     else $1::timestamptz - interval '1 minute' end,
			$1::timestamptz - interval '10 minutes',
			case when st in ('running', 'delayed') then $1::timestamptz - interval '5 minutes' end,
			g % 4 = 0,
			case when st = 'delayed' then jsonb_build_object('code', 'X_BOOM', 'message', 'try again') end,
			pipe.transition(1, 0, $1::timestamptz - interval '10 minutes')
			|| case when st in ('running', 'delayed') then pipe.transition(2, 1, $1::timestamptz - interval '5 minutes') else '' end
		from (select g, gen_random_uuid() as id,
		             (array['ready', 'ready', 'ready', 'ready', 'delayed', 'delayed', 'running', 'running', 'running', 'suspended'])[1 + g % 10] as st
		      from generate_series(1, $2::int) g) s`,
		// the journal: a completed step, then the failures, in seq order
		`insert into pipe.events (job_id, kind, attempt, step, data, at)
		select id, 'step.completed', 1, 'fetch',
			to_jsonb(case when idem_key like 'fin-%' then 'legacy-out-' else 'open-out-' end || idem_key),
			coalesce(finished_at, $1::timestamptz) - interval '20 seconds'
		from pipe.jobs where has_steps order by idem_key`,
		`insert into pipe.events (job_id, kind, attempt, data, at)
		select id, 'attempt.failed', 1, last_error, finished_at - interval '1 second'
		from pipe.jobs where state in ('dead', 'failed') order by idem_key`,
		`insert into pipe.events (job_id, kind, attempt, data, at)
		select id, state, 1, jsonb_build_object('code', 'X_BOOM'), finished_at
		from pipe.jobs where state in ('dead', 'failed', 'cancelled') order by idem_key`,
		`update pipe.jobs set transitions = transitions || pipe.transition(3, 1, finished_at) where state = 'done'`,
		`analyze pipe.jobs; analyze pipe.events`,
	}
	for i, s := range stmts {
		var args []any
		switch {
		case i == 0:
			args = []any{legacyNow, legacyFinished}
		case i == 1:
			args = []any{legacyNow, legacyOpen}
		case strings.Contains(s, "$1"):
			args = []any{legacyNow}
		}
		if _, err := pool.Exec(ctx, s, args...); err != nil {
			t.Fatalf("fill statement %d: %v", i, err)
		}
	}
}

// legacyIDs answers the ids of the runs of the earlier layout matching where.
func legacyIDs(t *testing.T, db pipeline.DB, where string) []string {
	t.Helper()
	rows, err := db.Query(context.Background(), `select id::text from public.before_runs where `+where+` order by key`)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// scalar answers one value of a query.
func scalar[T any](t *testing.T, db pipeline.DB, sql string, args ...any) T {
	t.Helper()
	var v T
	if err := db.QueryRow(context.Background(), sql, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// waitUntil polls cond until it holds, failing the test after a minute.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// executions counts, by key, how many times the step function of
// legacy.work ran.
type executions struct {
	mu sync.Mutex
	n  map[string]int
}

func (e *executions) add(k string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.n[k]++
}

func (e *executions) of(k string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.n[k]
}

func TestUpgradeFrom21MovesEveryRunWhileWorkersRun(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.EmptyDB(t)
	migrateFilesTo(t, pool, 21)
	clock := fixtures.FreezeClock(t, pool, legacyNow)
	fillLegacy(t, pool)
	// What the database held before the upgrade, to compare with after.
	if _, err := pool.Exec(ctx, `begin; set local jit = off;
		create table public.before_runs as select id, idem_key as key, state, to_jsonb(j) as row from pipe.jobs j;
		create table public.before_events as select job_id, seq, kind, attempt, step, data, at from pipe.events;
		create table public.before_journal as select job_id, seq, kind, attempt, step, data, at from pipe.journal; commit`); err != nil {
		t.Fatal(err)
	}
	if n := scalar[int64](t, pool, `select count(*) from public.before_runs`); n != legacyFinished+legacyOpen {
		t.Fatalf("filled %d runs; want %d", n, legacyFinished+legacyOpen)
	}

	// The workers and the enqueuer use a pool of their own, large enough
	// for two workers (a LISTEN connection each) and the enqueues.
	cfg, err := pgxpool.ParseConfig(pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 16
	work, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(work.Close)

	ran := &executions{n: map[string]int{}}
	job := pipeline.MustJob("legacy.work", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (string, error) {
		return pipeline.Step(ctx, "fetch", func(context.Context) (string, error) {
			ran.add(run.Input.K)
			return "ran-" + run.Input.K, nil
		})
	}, pipeline.JobOptions[noInput, string]{Retry: &pipeline.Retry{Attempts: 5, Delay: time.Millisecond, MaxDelay: time.Millisecond}})
	logs := make([]*logRecorder, 2)
	for i := range logs {
		logs[i] = &logRecorder{}
		startWorker(t, work, pipeline.WorkerConfig{
			ID: fmt.Sprintf("upgrade-%d", i), Lease: time.Hour, Clock: clock, Logger: slog.New(logs[i]),
		}, job)
	}

	// The enqueuer: one run at a time, each key tried until it lands; its
	// errors are kept by SQLSTATE.
	var (
		enqMu      sync.Mutex
		enqueued   = map[string]string{} // id -> key
		enqFailed  atomic.Int64
		enqStop    = make(chan struct{})
		enqDone    = make(chan struct{})
		enqLanded  atomic.Int64
		enqErrors  = map[string]int{} // SQLSTATE (or the error) -> how many
		maxEnqueue = 1000
	)
	go func() {
		defer close(enqDone)
		for i := 0; i < maxEnqueue; {
			select {
			case <-enqStop:
				return
			default:
			}
			k := fmt.Sprintf("new-%d", i)
			res, err := job.Enqueue(ctx, work, noInput{K: k})
			if err != nil {
				code := err.Error()
				if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) {
					code = pgErr.Code
				}
				enqMu.Lock()
				enqErrors[code]++
				enqMu.Unlock()
				enqFailed.Add(1)
				time.Sleep(2 * time.Millisecond)
				continue
			}
			enqMu.Lock()
			enqueued[res.ID] = k
			enqMu.Unlock()
			enqLanded.Add(1)
			i++
		}
	}()
	stopEnqueuer := sync.OnceFunc(func() { close(enqStop); <-enqDone })
	t.Cleanup(stopEnqueuer)

	// Before 0022 the new code finds no pipe.runs: the workers' claims and
	// the enqueues fail, and keep trying.
	for _, l := range logs {
		l.await(t, "jobs.claim.failed")
	}
	waitUntil(t, "an enqueue refused before the migration", func() bool { return enqFailed.Load() > 0 })
	if n := enqLanded.Load(); n != 0 {
		t.Fatalf("%d enqueues landed before migration 22", n)
	}

	applied, err := pipeline.Migrate(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) == 0 || applied[0] != 22 || !slices.IsSorted(applied) {
		t.Fatalf("applied %v; want 22 and the migrations after it", applied)
	}
	// The open runs moved in the migration; the finished ones wait in the
	// legacy table, read through the views.
	if n := scalar[int64](t, pool, `select count(*) from pipe.jobs_legacy`); n != legacyFinished {
		t.Fatalf("jobs_legacy holds %d runs after the migration; want the %d finished", n, legacyFinished)
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.jobs`); n < legacyFinished+legacyOpen {
		t.Fatalf("pipe.jobs shows %d runs; want at least %d", n, legacyFinished+legacyOpen)
	}

	admin := pipeline.NewAdmin(pool)

	// pipe jobs show of a finished run still in the legacy table: its row,
	// steps and whole journal (transitions and events, in order).
	shown := legacyIDs(t, pool, `key = 'fin-12'`)[0]
	d, err := admin.Show(ctx, shown)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"enqueued", "claimed", "step.completed", "completed"}; !slices.Equal(kinds(d), want) {
		t.Errorf("show of legacy run fin-12: journal %v; want %v", kinds(d), want)
	}
	if s := stepOf(d, "fetch"); s.State != pipeline.StepCompleted || string(s.Output) != `"legacy-out-fin-12"` {
		t.Errorf("show of legacy run fin-12: step %+v", s)
	}
	if d.State != pipeline.StateDone || string(d.Result) != `"result-12"` || d.FinishedAt == nil {
		t.Errorf("show of legacy run fin-12: %s %s %v", d.State, d.Result, d.FinishedAt)
	}
	if !scalar[bool](t, pool, `select exists (select from pipe.jobs_legacy where id = $1)`, shown) {
		t.Error("show moved the legacy run: it is read in place")
	}

	// An operator's retry (pipe jobs retry: Admin.Requeue) of a dead run
	// still in the legacy table adopts it: it runs again, its completed step
	// replayed from the journal that moved with it.
	retried := legacyIDs(t, pool, `key = 'fin-9'`)[0]
	if err := admin.Requeue(ctx, retried); err != nil {
		t.Fatalf("requeue of a legacy dead run: %v", err)
	}
	if scalar[bool](t, pool, `select exists (select from pipe.jobs_legacy where id = $1)`, retried) {
		t.Error("the requeued legacy run is still in jobs_legacy")
	}
	d = awaitState(t, pool, retried, pipeline.StateDone)
	if string(d.Result) != `"legacy-out-fin-9"` || ran.of("fin-9") != 0 {
		t.Errorf("requeued legacy run: result %s, step ran %d times; want the journal's output, not run", d.Result, ran.of("fin-9"))
	}
	wantKinds := []string{"enqueued", "claimed", "step.completed", "attempt.failed", "dead", "requeued", "claimed", "completed"}
	if !slices.Equal(kinds(d), wantKinds) {
		t.Errorf("requeued legacy run: journal %v; want %v", kinds(d), wantKinds)
	}

	// The runs a gone worker held and the delayed ones come due.
	clock.Advance(t, 2*time.Minute)
	waitUntil(t, "the enqueuer to land 200 runs", func() bool { return enqLanded.Load() >= 200 })

	// The move, batch by batch on a connection of its own, killed in the
	// middle of a batch: once 5,000 runs moved, the journal's dead
	// partitions are locked against it, so that the next batch stops after
	// deleting its runs from jobs_legacy and inserting them into pipe.runs,
	// at its first dead journal row; its backend is then terminated.
	// Sessions of their own, past the kit's PgBouncer when the tests run
	// through it: the mover's backend is the one terminated.
	mover := fixtures.SessionConn(t, pool)
	blocker := fixtures.SessionConn(t, pool)
	moverPID := mover.PgConn().PID()
	var committed atomic.Int64
	blocked := false
	moveErr := make(chan error, 1)
	go func() {
		_, err := pipeline.MoveLegacyRuns(ctx, mover, 1000, func(moved int64) {
			committed.Store(moved)
			if moved >= 5000 && !blocked {
				blocked = true
				_, err := blocker.Exec(ctx, `begin; lock table pipe.run_events_dead in share mode`)
				if err != nil {
					t.Errorf("lock the journal's dead partitions: %v", err)
				}
			}
		})
		moveErr <- err
	}()
	waitUntil(t, "the move to wait on the journal's dead partitions", func() bool {
		select {
		case err := <-moveErr:
			t.Fatalf("the move ended before it was killed: %v", err)
		default:
		}
		return scalar[bool](t, pool, `select exists (select from pg_locks where pid = $1 and not granted)`, moverPID)
	})
	// It waits to write the journal, the batch's last part: its runs are
	// deleted from jobs_legacy and written to pipe.runs, uncommitted.
	if waiting := scalar[string](t, pool, `select string_agg(coalesce(relation::regclass::text, locktype), ' ')
		from pg_locks where pid = $1 and not granted`, moverPID); !strings.HasPrefix(waiting, "pipe.run_events_dead") {
		t.Fatalf("the move waits on %s; want the journal's dead partitions", waiting)
	}
	if !scalar[bool](t, pool, `select pg_terminate_backend($1)`, moverPID) {
		t.Fatal("could not terminate the move's backend")
	}
	if err := <-moveErr; err == nil {
		t.Fatal("the killed move answered no error")
	}
	if _, err := blocker.Exec(ctx, `rollback`); err != nil {
		t.Fatal(err)
	}
	killedAt := committed.Load()
	if killedAt < 5000 || killedAt%1000 != 0 {
		t.Fatalf("the move was killed after %d runs; want a multiple of the batch from 5,000", killedAt)
	}
	// The killed batch moved nothing: the legacy table lacks exactly the
	// batches committed and the run the operator adopted.
	left := scalar[int64](t, pool, `select count(*) from pipe.jobs_legacy`)
	if left != legacyFinished-1-killedAt {
		t.Fatalf("after the kill jobs_legacy holds %d runs; want %d", left, legacyFinished-1-killedAt)
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.jobs`); n < legacyFinished+legacyOpen {
		t.Fatalf("after the kill pipe.jobs shows %d runs; want at least %d", n, legacyFinished+legacyOpen)
	}

	// The next move resumes and finishes: the legacy tables go, the views
	// read the new tables alone.
	moved, err := pipeline.MoveLegacyRuns(ctx, pool, 700, nil)
	if err != nil {
		t.Fatalf("resumed move: %v", err)
	}
	if moved != left {
		t.Errorf("the resumed move moved %d runs; want %d", moved, left)
	}
	if again, err := pipeline.MoveLegacyRuns(ctx, pool, 700, nil); err != nil || again != 0 {
		t.Errorf("a move after the end moved %d (%v); want 0", again, err)
	}
	for _, rel := range []string{"pipe.jobs_legacy", "pipe.events_legacy"} {
		if scalar[bool](t, pool, `select to_regclass($1) is not null`, rel) {
			t.Errorf("%s is still there after the move", rel)
		}
	}
	for _, view := range []string{"jobs", "events"} {
		def := scalar[string](t, pool, `select definition from pg_views where schemaname = 'pipe' and viewname = $1`, view)
		if strings.Contains(strings.ToLower(def), "union") || strings.Contains(def, "legacy") {
			t.Errorf("pipe.%s is not a plain view of the new tables: %s", view, def)
		}
	}

	// Every open run of the earlier layout and every run enqueued is worked
	// to done; then the enqueuer stops and the rest finish too.
	waitUntil(t, "the enqueuer to land 400 runs", func() bool { return enqLanded.Load() >= 400 })
	stopEnqueuer()
	enqMu.Lock()
	// The enqueues failed only for want of pipe.runs, before 0022.
	for code, n := range enqErrors {
		if code != "42P01" {
			t.Errorf("%d enqueues failed with %s", n, code)
		}
	}
	newIDs := make([]string, 0, len(enqueued))
	for id := range enqueued {
		newIDs = append(newIDs, id)
	}
	enqMu.Unlock()
	waitUntil(t, "every open and enqueued run to be done", func() bool {
		return scalar[int64](t, pool, `select count(*) from pipe.runs_open`) == 0
	})
	if n := scalar[int64](t, pool, `select count(*) from pipe.runs r join public.before_runs b using (id)
		where b.state in ('ready', 'delayed', 'running', 'suspended') and r.state = 'done'`); n != legacyOpen {
		t.Errorf("%d of the %d open legacy runs are done", n, legacyOpen)
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.runs where id = any($1::uuid[]) and state = 'done'`, newIDs); n != int64(len(newIDs)) {
		t.Errorf("%d of the %d enqueued runs are done", n, len(newIDs))
	}
	// Each ran its step once, but those whose journal held the step, which
	// replayed it.
	for _, k := range legacyKeys(t, pool, `state in ('ready', 'delayed', 'running', 'suspended')`) {
		want := 1
		if n, _ := strconv.Atoi(strings.TrimPrefix(k, "open-")); n%4 == 0 {
			want = 0
		}
		if got := ran.of(k); got != want {
			t.Errorf("open legacy run %s ran its step %d times; want %d", k, got, want)
		}
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.runs r join public.before_runs b using (id)
		where b.state in ('ready', 'delayed', 'running', 'suspended') and split_part(b.key, '-', 2)::int % 4 = 0
		  and r.result is distinct from to_jsonb('open-out-' || b.key)`); n != 0 {
		t.Errorf("%d open legacy runs did not answer their journal's step output", n)
	}
	enqMu.Lock()
	for _, k := range enqueued {
		if got := ran.of(k); got != 1 {
			t.Errorf("enqueued run %s ran its step %d times; want 1", k, got)
		}
	}
	enqMu.Unlock()

	// Every run is there exactly once, the finished ones unchanged (but the
	// one the operator retried), every journal row kept exactly once, and
	// each run's journal in its run's partition.
	if n := scalar[int64](t, pool, `select count(*) from (select id from pipe.runs group by id having count(*) > 1) d`); n != 0 {
		t.Errorf("%d runs are in pipe.runs more than once", n)
	}
	if n := scalar[int64](t, pool, `select count(*) from public.before_runs b where not exists (select from pipe.runs r where r.id = b.id)`); n != 0 {
		t.Errorf("%d runs of the earlier layout are lost", n)
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.runs`); n != int64(legacyFinished+legacyOpen+len(newIDs)) {
		t.Errorf("pipe.runs holds %d runs; want %d", n, legacyFinished+legacyOpen+len(newIDs))
	}
	if n := scalar[int64](t, pool, `select count(*) from public.before_runs b join pipe.runs r using (id)
		where b.state in ('done', 'dead', 'cancelled', 'failed') and b.id <> $1 and to_jsonb(r) <> b.row`, retried); n != 0 {
		var sample string
		_ = pool.QueryRow(ctx, `select b.row::text || E'\n' || to_jsonb(r)::text from public.before_runs b join pipe.runs r using (id)
			where b.state in ('done', 'dead', 'cancelled', 'failed') and b.id <> $1 and to_jsonb(r) <> b.row limit 1`, retried).Scan(&sample)
		t.Errorf("%d finished runs changed in the move, e.g.\n%s", n, sample)
	}
	if n := scalar[int64](t, pool, `select count(*) from (select from pipe.run_events group by job_id, seq having count(*) > 1) d`); n != 0 {
		t.Errorf("%d journal rows are in pipe.run_events more than once", n)
	}
	// (jit off: compiling a scan of every partition costs seconds)
	if _, err := pool.Exec(ctx, `begin; set local jit = off;
		create table public.after_journal as select job_id, seq, kind, attempt, at from pipe.journal; commit`); err != nil {
		t.Fatal(err)
	}
	if n := scalar[int64](t, pool, `select count(*) from (select seq from public.after_journal group by seq having count(*) > 1) d`); n != 0 {
		t.Errorf("%d journal seqs are used more than once", n)
	}
	if n, want := scalar[int64](t, pool, `select count(*) from public.before_events b join pipe.run_events e using (job_id, seq)
		where e.kind = b.kind and e.attempt = b.attempt and e.step is not distinct from b.step
		  and e.data is not distinct from b.data and e.at = b.at`), scalar[int64](t, pool, `select count(*) from public.before_events`); n != want {
		t.Errorf("%d of the %d journal rows of the earlier layout are in pipe.run_events", n, want)
	}
	if n, want := scalar[int64](t, pool, `select count(*) from public.before_journal b join public.after_journal j using (job_id, seq)
		where j.kind = b.kind and j.attempt = b.attempt and j.at = b.at`),
		scalar[int64](t, pool, `select count(*) from public.before_journal`); n != want {
		t.Errorf("%d of the %d entries of the earlier journals (events and transitions) are in pipe.journal", n, want)
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.run_events e join pipe.runs r on r.id = e.job_id
		where e.run_state <> case when r.finished_at is null then 'open' else r.state end
		   or e.run_finished_at is distinct from r.finished_at`); n != 0 {
		t.Errorf("%d journal rows are not with their run", n)
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.run_events e where not exists (select from pipe.runs r where r.id = e.job_id)`); n != 0 {
		t.Errorf("%d journal rows have no run", n)
	}
	// The oldest finished runs are in the old edge partitions, below the
	// days the migration made.
	if scalar[int64](t, pool, `select count(*) from pipe.runs_done_old`) == 0 || scalar[int64](t, pool, `select count(*) from pipe.run_events_done_old`) == 0 {
		t.Error("no finished run of the earlier layout landed in the old edge partition")
	}
}

// legacyKeys answers the keys of the runs of the earlier layout matching where.
func legacyKeys(t *testing.T, db pipeline.DB, where string) []string {
	t.Helper()
	rows, err := db.Query(context.Background(), `select key from public.before_runs where `+where+` order by key`)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
