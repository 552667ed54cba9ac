package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// partitionPool answers a pool on a fresh migrated database with no
// partition of finished runs (the template's were made around the day it
// was built): the test's frozen clock makes its own. zone, when set, is
// every session's TimeZone; maxConns, when set, the pool's size.
func partitionPool(t *testing.T, zone string, maxConns int32) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	// Straight to the server: retention detaches concurrently in a session
	// of its own, which a transaction pooler cannot keep (retention through
	// one has its own test, in pooler_test.go).
	cfg, err := pgxpool.ParseConfig(fixtures.DirectURL(t, fixtures.DBURL(t)))
	if err != nil {
		t.Fatal(err)
	}
	if zone != "" {
		cfg.ConnConfig.RuntimeParams["timezone"] = zone
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	for _, p := range partitionsOf(t, pool, "") {
		if _, err := fixtures.Owner(t, pool).Exec(ctx, `drop table `+pgx.Identifier{"pipe", p.name}.Sanitize()); err != nil {
			t.Fatal(err)
		}
	}
	return pool
}

// partition is a row of pipe.run_partitions(); lower is zero for an old
// edge (from MINVALUE).
type partition struct {
	tree, name   string
	lower, upper time.Time
	detaching    bool
}

// partitionsOf answers the partitions of tree (every tree when ""), by
// tree and lower bound, the old edge first.
func partitionsOf(t *testing.T, db pipeline.DB, tree string) []partition {
	t.Helper()
	rows, err := db.Query(context.Background(), `select tree, name, case when lower = '-infinity' then null else lower end, upper, detaching
		from pipe.run_partitions() p where $1 = '' or p.tree = $1 order by p.tree, p.lower`, tree)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (partition, error) {
		var p partition
		var lower *time.Time
		err := row.Scan(&p.tree, &p.name, &lower, &p.upper, &p.detaching)
		if lower != nil {
			p.lower = *lower
		}
		return p, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// frozenPartitions answers a pool of its own with the database clock
// frozen at at and the partitions that time needs made.
func frozenPartitions(t *testing.T, at time.Time) (*pgxpool.Pool, *fixtures.FrozenClock) {
	t.Helper()
	pool := partitionPool(t, "", 0)
	clock := fixtures.FreezeClock(t, pool, at)
	if _, err := pipeline.EnsurePartitions(context.Background(), pool); err != nil {
		t.Fatal(err)
	}
	return pool, clock
}

// hasPartition tells whether a partition of that name is attached (or
// detaching) to a finished tree.
func hasPartition(t *testing.T, db pipeline.DB, name string) bool {
	t.Helper()
	return scalar[bool](t, db, `select exists (select from pipe.run_partitions() where name = $1)`, name)
}

// partitionOfRun answers the partition holding a run's row, and those
// holding its journal rows.
func partitionOfRun(t *testing.T, db pipeline.DB, id string) (string, []string) {
	t.Helper()
	row := scalar[string](t, db, `select c.relname::text from pipe.runs r join pg_class c on c.oid = r.tableoid where r.id = $1`, id)
	rows, err := db.Query(context.Background(), `select distinct c.relname::text from pipe.run_events e
		join pg_class c on c.oid = e.tableoid where e.job_id = $1 order by 1`, id)
	if err != nil {
		t.Fatal(err)
	}
	journal, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return row, journal
}

// checkContiguous fails the test unless tree's partitions are an old edge
// then consecutive periods of width from UTC midnights (Mondays for
// weeks), each named tree_YYYYMMDD by its UTC start (a _gap suffix for a
// gap partition, of any width), and answers the names of the periods.
func checkContiguous(t *testing.T, db pipeline.DB, tree string, width time.Duration) []string {
	t.Helper()
	parts := partitionsOf(t, db, tree)
	if len(parts) == 0 || !parts[0].lower.IsZero() || parts[0].name != tree+"_old" {
		t.Fatalf("%s: no old edge first: %+v", tree, parts)
	}
	var names []string
	for i, p := range parts[1:] {
		prev := parts[i]
		if !p.lower.Equal(prev.upper) {
			t.Errorf("%s: %s starts at %v, %s ends at %v: a gap or an overlap", tree, p.name, p.lower.UTC(), prev.name, prev.upper.UTC())
		}
		lo := p.lower.UTC()
		if lo.Hour() != 0 || lo.Minute() != 0 || lo.Second() != 0 || lo.Nanosecond() != 0 {
			t.Errorf("%s: %s starts at %v, not a UTC midnight", tree, p.name, lo)
		}
		want := tree + "_" + lo.Format("20060102")
		if strings.HasSuffix(p.name, "_gap") {
			want += "_gap"
		} else {
			if got := p.upper.Sub(p.lower); got != width {
				t.Errorf("%s: %s spans %v; want %v", tree, p.name, got, width)
			}
			if width == 7*24*time.Hour && lo.Weekday() != time.Monday {
				t.Errorf("%s: %s starts on a %s", tree, p.name, lo.Weekday())
			}
		}
		if p.name != want {
			t.Errorf("%s: partition from %v is named %s; want %s", tree, lo, p.name, want)
		}
		names = append(names, p.name)
	}
	return names
}

const (
	aDay  = 24 * time.Hour
	aWeek = 7 * aDay
)

// warnRecorder keeps the warnings and errors a worker logs.
type warnRecorder struct {
	mu   sync.Mutex
	msgs []string
}

func (r *warnRecorder) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (r *warnRecorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	msg := rec.Message
	rec.Attrs(func(a slog.Attr) bool {
		msg += " " + a.String()
		return true
	})
	r.msgs = append(r.msgs, msg)
	return nil
}
func (r *warnRecorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *warnRecorder) WithGroup(string) slog.Handler      { return r }
func (r *warnRecorder) logged() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

// churnJob answers a job whose runs complete a step (a journal row) and
// then finish dead (one attempt, failed) when keyed dead-*, else done,
// answering the key.
func churnJob() *pipeline.Job[noInput, string] {
	return pipeline.MustJob("churn", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (string, error) {
		k, err := pipeline.Step(ctx, "key", func(context.Context) (string, error) { return run.Input.K, nil })
		if err != nil {
			return "", err
		}
		if strings.HasPrefix(k, "dead") {
			return "", errors.New("meant to die")
		}
		return k, nil
	}, pipeline.JobOptions[noInput, string]{Retry: &pipeline.Retry{Attempts: 1}})
}

// TestPartitionsAreUTCDaysAndMondayWeeks: the partitions made around a
// clock frozen at a European DST change and at a month's last minute, by
// sessions in Europe/Berlin (where the latter is already the next month),
// are contiguous UTC days and Monday weeks named by their UTC start, and a
// run finishing then lands in the UTC day's partition.
func TestPartitionsAreUTCDaysAndMondayWeeks(t *testing.T) {
	for _, c := range []struct {
		name       string
		at         time.Time
		done, dead []string // the periods expected, by start
	}{
		{"dst", time.Date(2026, 3, 29, 0, 30, 0, 0, time.UTC),
			[]string{"20260328", "20260329", "20260330", "20260331"}, []string{"20260316", "20260323", "20260330"}},
		{"month end", time.Date(2026, 1, 31, 23, 59, 0, 0, time.UTC),
			[]string{"20260130", "20260131", "20260201", "20260202"}, []string{"20260119", "20260126", "20260202"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			pool := partitionPool(t, "Europe/Berlin", 0)
			if zone := scalar[string](t, pool, `show timezone`); zone != "Europe/Berlin" {
				t.Fatalf("the session's TimeZone is %s", zone)
			}
			fixtures.FreezeClock(t, pool, c.at)
			made, err := pipeline.EnsurePartitions(ctx, pool)
			if err != nil {
				t.Fatal(err)
			}
			if want := 2 * (1 + len(c.done) + 1 + len(c.dead)); made != want {
				t.Errorf("made %d partitions; want %d", made, want)
			}
			for _, tree := range []string{"runs_done", "run_events_done", "runs_dead", "run_events_dead"} {
				width, periods := aDay, c.done
				if strings.HasSuffix(tree, "_dead") {
					width, periods = aWeek, c.dead
				}
				got := checkContiguous(t, pool, tree, width)
				var want []string
				for _, p := range periods {
					want = append(want, tree+"_"+p)
				}
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%s: partitions %v; want %v", tree, got, want)
				}
			}
			if again, err := pipeline.EnsurePartitions(ctx, pool); err != nil || again != 0 {
				t.Errorf("a second EnsurePartitions made %d (%v); want 0", again, err)
			}

			// A run cancelled now finishes in the UTC day's partition, with
			// its journal.
			j := churnJob()
			res, err := j.Enqueue(ctx, pool, noInput{K: "a"})
			if err != nil {
				t.Fatal(err)
			}
			if err := pipeline.NewAdmin(pool).Cancel(ctx, res.ID, "test"); err != nil {
				t.Fatal(err)
			}
			want := "runs_done_" + c.at.UTC().Format("20060102")
			row, journal := partitionOfRun(t, pool, res.ID)
			if row != want || strings.Join(journal, " ") != "run_events_done_"+c.at.UTC().Format("20060102") {
				t.Errorf("the run finished at %v is in %s, its journal in %v; want %s", c.at, row, journal, want)
			}
		})
	}
}

// TestARunFinishingAtMidnightIsInTheDayStartingThen: a run finishing a
// microsecond before midnight UTC is in the day ending then, one finishing
// at midnight in the day starting then; each is kept exactly as long as
// its day's partition, and dropped with it (journal and all).
func TestARunFinishingAtMidnightIsInTheDayStartingThen(t *testing.T) {
	ctx := context.Background()
	midnight := time.Date(2026, 3, 30, 0, 0, 0, 0, time.UTC)
	pool, clock := frozenPartitions(t, midnight.Add(-time.Microsecond))
	j := churnJob()
	startWorker(t, pool, pipeline.WorkerConfig{Clock: clock, Lease: time.Hour}, j)

	before, err := j.Enqueue(ctx, pool, noInput{K: "before"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, before.ID, pipeline.StateDone)
	clock.Advance(t, time.Microsecond)
	at, err := j.Enqueue(ctx, pool, noInput{K: "at"})
	if err != nil {
		t.Fatal(err)
	}
	d := awaitState(t, pool, at.ID, pipeline.StateDone)
	if !d.FinishedAt.Equal(midnight) {
		t.Fatalf("the run finished at %v; want %v", d.FinishedAt, midnight)
	}
	for id, day := range map[string]string{before.ID: "20260329", at.ID: "20260330"} {
		row, journal := partitionOfRun(t, pool, id)
		if row != "runs_done_"+day || strings.Join(journal, " ") != "run_events_done_"+day {
			t.Errorf("run %s is in %s, its journal in %v; want the day %s", id, row, journal, day)
		}
	}

	exists := func(id string) bool {
		return scalar[int64](t, pool, `select count(*) from pipe.runs where id = $1`, id)+
			scalar[int64](t, pool, `select count(*) from pipe.run_events where job_id = $1`, id) > 0
	}
	r := pipeline.Retention{Done: 2 * aDay, Dead: 90 * aDay}
	maintainAt := func(at time.Time) pipeline.MaintainResult {
		t.Helper()
		clock.Advance(t, at.Sub(clock.Now()))
		m, err := pipeline.Maintain(ctx, pool, r)
		if err != nil {
			t.Fatalf("maintain at %v: %v", at, err)
		}
		return m
	}
	// The day 03-29 ends at 03-30 00:00: past a retention of two days from
	// 04-01 00:00 on, and not a microsecond earlier.
	maintainAt(midnight.Add(2*aDay - time.Microsecond))
	if !exists(before.ID) || !hasPartition(t, pool, "runs_done_20260329") {
		t.Fatal("the run of 03-29 was dropped before its day's retention ended")
	}
	if hasPartition(t, pool, "runs_done_20260328") || hasPartition(t, pool, "run_events_done_20260328") {
		t.Error("the partitions of 03-28 outlived their retention")
	}
	m := maintainAt(midnight.Add(2 * aDay))
	if exists(before.ID) || hasPartition(t, pool, "runs_done_20260329") || hasPartition(t, pool, "run_events_done_20260329") {
		t.Error("the run of 03-29 (and its partitions) outlived its day's retention")
	}
	if m.Purged != 1 || m.PurgedEstimated {
		t.Errorf("the pass purged %d runs (estimated %v); want 1, counted", m.Purged, m.PurgedEstimated)
	}
	if !exists(at.ID) {
		t.Fatal("the run finished at midnight was dropped with the day before")
	}
	maintainAt(midnight.Add(3*aDay - time.Microsecond))
	if !exists(at.ID) {
		t.Fatal("the run finished at midnight was dropped before its day's retention ended")
	}
	m = maintainAt(midnight.Add(3 * aDay))
	if exists(at.ID) || hasPartition(t, pool, "runs_done_20260330") || hasPartition(t, pool, "run_events_done_20260330") {
		t.Error("the run finished at midnight (and its partitions) outlived its day's retention")
	}
	if m.Purged != 1 {
		t.Errorf("the pass purged %d runs; want 1", m.Purged)
	}
	checkContiguous(t, pool, "runs_done", aDay)
	checkContiguous(t, pool, "run_events_done", aDay)
}

// TestRetentionDropsPartitionsUnderARunningWorker: while a worker claims
// and finishes 2,000 runs enqueued ten at a time, Maintain (on the pool:
// DETACH CONCURRENTLY) is run four times, the clock a day later each
// time, and each pass drops a day of runs finished before (and the last
// their week of dead runs). No enqueued run is lost, the worker logs no
// warning, and the expired partitions are gone.
func TestRetentionDropsPartitionsUnderARunningWorker(t *testing.T) {
	ctx := context.Background()
	pool := partitionPool(t, "", 12)
	start := time.Date(2026, 2, 26, 12, 0, 0, 0, time.UTC) // a Thursday
	clock := fixtures.FreezeClock(t, pool, start)
	if _, err := pipeline.EnsurePartitions(ctx, pool); err != nil {
		t.Fatal(err)
	}
	warnings := &warnRecorder{}
	j := churnJob()
	w := startWorker(t, pool, pipeline.WorkerConfig{Clock: clock, Lease: 30 * aDay, Logger: slog.New(warnings)}, j)

	// Four days of finished runs: 02-26 to 03-01, 50 done and 10 dead a day
	// (the dead in the week from Monday 02-23).
	const doneADay, deadADay = 50, 10
	for d := range 4 {
		if d > 0 {
			clock.Advance(t, aDay)
			if _, err := pipeline.Maintain(ctx, pool, pipeline.Retention{Done: 7 * aDay, Dead: 7 * aDay}); err != nil {
				t.Fatal(err)
			}
		}
		var ins []noInput
		for i := range doneADay {
			ins = append(ins, noInput{K: fmt.Sprintf("fill-%d-%d", d, i)})
		}
		for i := range deadADay {
			ins = append(ins, noInput{K: fmt.Sprintf("dead-%d-%d", d, i)})
		}
		if _, err := j.EnqueueMany(ctx, pool, ins); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "the day's runs to finish", func() bool {
			return scalar[int64](t, pool, `select count(*) from pipe.runs_open`) == 0
		})
	}
	for d, day := range []string{"20260226", "20260227", "20260228", "20260301"} {
		if n := scalar[int64](t, pool, `select count(*) from pipe.runs_done_`+day); n != doneADay {
			t.Fatalf("day %d: runs_done_%s holds %d runs; want %d", d, day, n, doneADay)
		}
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.runs_dead_20260223`); n != 4*deadADay {
		t.Fatalf("runs_dead_20260223 holds %d runs; want %d", n, 4*deadADay)
	}
	deadBefore := w.Stats().DeadLettered.Load()

	// The load: 2,000 runs enqueued ten at a time from 03-06 noon.
	clock.Advance(t, start.Add(8*aDay).Sub(clock.Now()))
	if _, err := pipeline.EnsurePartitions(ctx, pool); err != nil {
		t.Fatal(err)
	}
	warned := len(warnings.logged())
	const load = 2000
	var (
		enqueued atomic.Int64
		enqErr   = make(chan error, 1)
		ids      = make([]string, 0, load)
	)
	go func() {
		defer close(enqErr)
		for i := 0; i < load; i += 10 {
			var ins []noInput
			for k := i; k < i+10; k++ {
				ins = append(ins, noInput{K: fmt.Sprintf("load-%d", k)})
			}
			res, err := j.EnqueueMany(ctx, pool, ins)
			if err != nil {
				enqErr <- err
				return
			}
			for _, r := range res {
				ids = append(ids, r.ID)
			}
			enqueued.Add(int64(len(res)))
		}
	}()

	// Each pass expires one more day of runs finished before the load (a
	// retention of a week): 02-26 at 03-06 noon, ..., 03-01 at 03-09 noon,
	// and with it the week of dead runs from 02-23.
	r := pipeline.Retention{Done: 7 * aDay, Dead: 7 * aDay}
	var purged int64
	for pass, gone := range []string{"20260226", "20260227", "20260228", "20260301"} {
		waitUntil(t, "the load to go on", func() bool { return enqueued.Load() >= int64(400*(pass+1)) })
		if pass > 0 {
			clock.Advance(t, aDay)
		}
		// The owner's pass, which detaches concurrently: a role that does
		// not own the partitions detaches in a transaction, and may defer.
		m, err := pipeline.Maintain(ctx, fixtures.Owner(t, pool), r)
		if err != nil {
			t.Fatalf("pass %d: %v", pass, err)
		}
		if m.PartitionsDropped == 0 || m.DropsDeferred != 0 {
			t.Errorf("pass %d dropped %d partitions, deferred %d; want some dropped, none deferred", pass, m.PartitionsDropped, m.DropsDeferred)
		}
		purged += m.Purged
		for _, tree := range []string{"runs_done", "run_events_done"} {
			if hasPartition(t, pool, tree+"_"+gone) {
				t.Errorf("pass %d left %s_%s, past retention", pass, tree, gone)
			}
			if pass < 3 && !hasPartition(t, pool, tree+"_20260301") {
				t.Errorf("pass %d dropped %s_20260301 before its retention ended", pass, tree)
			}
		}
		if deadGone := pass == 3; hasPartition(t, pool, "runs_dead_20260223") == deadGone {
			t.Errorf("pass %d: runs_dead_20260223 there %v; want %v", pass, !deadGone, !deadGone)
		}
	}
	if err := <-enqErr; err != nil {
		t.Fatalf("enqueue: %v", err)
	}
	waitUntil(t, "every enqueued run to finish", func() bool {
		return scalar[int64](t, pool, `select count(*) from pipe.runs_open`) == 0
	})

	if n := scalar[int64](t, pool, `select count(*) from pipe.runs where id = any($1::uuid[]) and state = 'done'`, ids); n != load {
		t.Errorf("%d of the %d runs enqueued under the retention passes are done", n, load)
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.runs where idem_key like 'fill-%' or idem_key like 'dead-%'`); n != 0 {
		t.Errorf("%d runs finished before the load outlived their retention", n)
	}
	if want := int64(4 * (doneADay + deadADay)); purged != want {
		t.Errorf("the passes purged %d runs; want %d", purged, want)
	}
	if n := w.Stats().DeadLettered.Load() - deadBefore; n != 0 || w.Stats().Retried.Load() != 0 {
		t.Errorf("under the load %d runs were dead-lettered, %d retried", n, w.Stats().Retried.Load())
	}
	if msgs := warnings.logged()[warned:]; len(msgs) != 0 {
		t.Errorf("under the load the worker logged %d warnings, the first: %s", len(msgs), msgs[0])
	}
	if _, err := pipeline.EnsurePartitions(ctx, pool); err != nil { // the old edges a pass dropped
		t.Fatal(err)
	}
	for _, tree := range []string{"runs_done", "run_events_done"} {
		checkContiguous(t, pool, tree, aDay)
	}
	for _, tree := range []string{"runs_dead", "run_events_dead"} {
		checkContiguous(t, pool, tree, aWeek)
	}
	for _, p := range partitionsOf(t, pool, "") {
		if p.detaching {
			t.Errorf("%s is left detaching", p.name)
		}
	}
}

// cancelledRunAt answers a database whose clock is frozen at start, its
// partitions made, and a run of churn enqueued and cancelled there: a
// done-tree run finished at start.
func cancelledRunAt(t *testing.T, start time.Time) (*pgxpool.Pool, *fixtures.FrozenClock, string) {
	t.Helper()
	ctx := context.Background()
	pool, clock := frozenPartitions(t, start)
	res, err := churnJob().Enqueue(ctx, pool, noInput{K: "cancelled"})
	if err != nil {
		t.Fatal(err)
	}
	if err := pipeline.NewAdmin(pool).Cancel(ctx, res.ID, "test"); err != nil {
		t.Fatal(err)
	}
	return pool, clock, res.ID
}

// readingRunsDone begins a transaction that has read runs_done and holds
// its lock until the answered rollback: a DETACH ... CONCURRENTLY of a
// partition of runs_done waits for it in its second transaction.
func readingRunsDone(t *testing.T, pool *pgxpool.Pool) (rollback func()) {
	t.Helper()
	ctx := context.Background()
	holder, err := pgx.Connect(ctx, pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Close(ctx) })
	if _, err := holder.Exec(ctx, `begin isolation level repeatable read; select count(*) from pipe.runs_done`); err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := holder.Exec(ctx, `rollback`); err != nil {
			t.Fatal(err)
		}
	}
}

// killDetach waits for a backend running a DETACH ... CONCURRENTLY to wait
// for a lock in its second transaction and terminates it.
func killDetach(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	var pid int32
	waitUntil(t, "a concurrent detach to wait", func() bool {
		err := fixtures.Owner(t, pool).QueryRow(context.Background(), `select a.pid from pg_stat_activity a
			where a.query ilike '%detach partition%concurrently%' and a.pid <> pg_backend_pid()
			  and exists (select from pg_locks l where l.pid = a.pid and not l.granted)
			  and exists (select from pipe.run_partitions() where detaching)`).Scan(&pid)
		return err == nil
	})
	if !scalar[bool](t, fixtures.Owner(t, pool), `select pg_terminate_backend($1)`, pid) {
		t.Fatal("could not terminate the detach")
	}
}

// pendingDetach answers the partition left detaching ("" for none).
func pendingDetach(t *testing.T, db pipeline.DB) string {
	t.Helper()
	var names []string
	for _, p := range partitionsOf(t, db, "") {
		if p.detaching {
			names = append(names, p.name)
		}
	}
	if len(names) > 1 {
		t.Fatalf("partitions %v are detaching", names)
	}
	return strings.Join(names, "")
}

// TestAKilledRetentionPassIsFinishedByTheNext: a retention pass killed
// between the two transactions of a DETACH ... CONCURRENTLY leaves its
// partition detaching. A pass in a transaction finishes that detach
// (FINALIZE) and drops it with the others; so does a pass on the pool. Killed first on the old edge of runs_done (a
// Maintain killed for real), then on a day partition after the old edge
// and the days below it were dropped (the detach a killed pass began,
// begun and killed by hand).
func TestAKilledRetentionPassIsFinishedByTheNext(t *testing.T) {
	r := pipeline.Retention{Done: aDay, Dead: 90 * aDay}
	start := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

	t.Run("on the old edge", func(t *testing.T) {
		ctx := context.Background()
		pool, clock, id := cancelledRunAt(t, start)
		clock.Advance(t, 3*aDay) // 03-01 to 03-03 and the old edge expire

		rollback := readingRunsDone(t, pool)
		killed := make(chan error, 1)
		go func() { // the owner's pass, which detaches concurrently
			_, err := pipeline.Maintain(ctx, fixtures.Owner(t, pool), r)
			killed <- err
		}()
		killDetach(t, pool)
		if err := <-killed; err == nil {
			t.Fatal("the killed pass answered no error")
		}
		rollback()
		pending := pendingDetach(t, pool)
		if pending != "runs_done_old" {
			t.Fatalf("the killed pass left %q detaching; want runs_done_old", pending)
		}

		err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			m, err := pipeline.Maintain(ctx, tx, r)
			if err == nil && (m.DropsDeferred != 0 || m.PartitionsDropped == 0) {
				t.Errorf("a pass in a transaction dropped %d and deferred %d; want the detaching one finished and dropped", m.PartitionsDropped, m.DropsDeferred)
			}
			return err
		})
		if err != nil {
			t.Fatalf("a pass in a transaction after the kill: %v", err)
		}
		if p := pendingDetach(t, pool); p != "" {
			t.Fatalf("a pass in a transaction left %q detaching", p)
		}
		if hasPartition(t, pool, "runs_done_20260302") || scalar[int64](t, pool, `select count(*) from pipe.jobs where id = $1`, id) != 0 {
			t.Error("a pass in a transaction left the expired run")
		}

		if _, err := pipeline.Maintain(ctx, pool, r); err != nil {
			t.Fatalf("the pass after the kill: %v", err)
		}
		checkContiguous(t, pool, "runs_done", aDay)
		checkContiguous(t, pool, "run_events_done", aDay)
	})

	t.Run("on a day", func(t *testing.T) {
		ctx := context.Background()
		pool, clock, id := cancelledRunAt(t, start)
		clock.Advance(t, aDay) // the old edge and 03-01 expire
		if _, err := pipeline.Maintain(ctx, pool, r); err != nil {
			t.Fatal(err)
		}
		if hasPartition(t, pool, "runs_done_20260301") || !hasPartition(t, pool, "runs_done_20260302") {
			t.Fatal("the first pass did not drop 03-01 alone")
		}
		clock.Advance(t, aDay) // 03-02 expires

		rollback := readingRunsDone(t, pool)
		detacher, err := pgx.Connect(ctx, fixtures.Owner(t, pool).Config().ConnString())
		if err != nil {
			t.Fatal(err)
		}
		defer detacher.Close(ctx)
		detached := make(chan error, 1)
		go func() {
			_, err := detacher.Exec(ctx, `alter table pipe.runs_done detach partition pipe.runs_done_20260302 concurrently`)
			detached <- err
		}()
		killDetach(t, pool)
		if err := <-detached; err == nil {
			t.Fatal("the killed detach answered no error")
		}
		rollback()
		if p := pendingDetach(t, pool); p != "runs_done_20260302" {
			t.Fatalf("the killed detach left %q detaching", p)
		}

		m, err := pipeline.Maintain(ctx, pool, r)
		if err != nil {
			t.Fatalf("the pass after the kill: %v", err)
		}
		if p := pendingDetach(t, pool); p != "" || hasPartition(t, pool, "runs_done_20260302") ||
			scalar[bool](t, pool, `select to_regclass('pipe.runs_done_20260302') is not null`) {
			t.Errorf("the pass after the kill left runs_done_20260302 (%q detaching)", p)
		}
		if m.Purged != 1 || m.DropsDeferred != 0 {
			t.Errorf("the pass purged %d runs, deferred %d drops; want 1 and 0", m.Purged, m.DropsDeferred)
		}
		if n := scalar[int64](t, pool, `select count(*) from pipe.jobs where id = $1`, id) +
			scalar[int64](t, pool, `select count(*) from pipe.events where job_id = $1`, id); n != 0 {
			t.Error("the expired run or its journal is still there")
		}
		checkContiguous(t, pool, "runs_done", aDay)
		checkContiguous(t, pool, "run_events_done", aDay)
	})
}

// TestASettleIntoADayWithoutPartitionMakesIt: a worker whose clock is days
// past the last partition made (no maintenance since) settles a run done
// and one dead all the same: the settle makes the partitions and is sent
// again.
func TestASettleIntoADayWithoutPartitionMakesIt(t *testing.T) {
	ctx := context.Background()
	pool := partitionPool(t, "", 0)
	start := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	clock := fixtures.FreezeClock(t, pool, start)
	warnings := &warnRecorder{}
	j := churnJob()
	w := startWorker(t, pool, pipeline.WorkerConfig{Clock: clock, Lease: time.Hour, Logger: slog.New(warnings)}, j)
	if len(partitionsOf(t, pool, "runs_done")) == 0 {
		t.Fatal("the worker's start made no partition")
	}
	clock.Advance(t, 30*aDay) // 04-01 noon, a Wednesday
	if n := scalar[int64](t, pool, `select count(*) from pipe.run_partitions() where upper > pipe.now()`); n != 0 {
		t.Fatalf("%d partitions reach the advanced clock", n)
	}

	done, err := j.Enqueue(ctx, pool, noInput{K: "ok"})
	if err != nil {
		t.Fatal(err)
	}
	dead, err := j.Enqueue(ctx, pool, noInput{K: "dead"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, done.ID, pipeline.StateDone)
	awaitState(t, pool, dead.ID, pipeline.StateDead)
	for id, want := range map[string]string{done.ID: "runs_done_20260401", dead.ID: "runs_dead_20260330"} {
		row, journal := partitionOfRun(t, pool, id)
		if row != want || strings.Join(journal, " ") != strings.Replace(want, "runs_", "run_events_", 1) {
			t.Errorf("run %s is in %s, its journal in %v; want %s", id, row, journal, want)
		}
	}
	if w.Stats().Completed.Load() != 1 || w.Stats().DeadLettered.Load() != 1 || w.Stats().Retried.Load() != 0 {
		t.Errorf("worker completed %d, dead-lettered %d, retried %d; want 1, 1, 0",
			w.Stats().Completed.Load(), w.Stats().DeadLettered.Load(), w.Stats().Retried.Load())
	}
	for _, msg := range warnings.logged() {
		if !strings.HasPrefix(msg, "jobs.run.dead ") {
			t.Errorf("the worker logged: %s", msg)
		}
	}
	// The missed days are one gap partition, then days again.
	names := checkContiguous(t, pool, "runs_done", aDay)
	want := "runs_done_20260301 runs_done_20260302 runs_done_20260303 runs_done_20260304 runs_done_20260305_gap " +
		"runs_done_20260331 runs_done_20260401 runs_done_20260402 runs_done_20260403"
	if strings.Join(names, " ") != want {
		t.Errorf("runs_done partitions %v; want %s", names, want)
	}
	checkContiguous(t, pool, "run_events_done", aDay)
	checkContiguous(t, pool, "runs_dead", aWeek)
	checkContiguous(t, pool, "run_events_dead", aWeek)
}

// TestARetryOfARunInAnOldPartitionRunsItAgain: a run dead ten days ago
// lives in that week's partition of dead runs, its journal beside it. An
// operator's retry moves it (and its journal) back to the open runs; it
// replays its completed step from the journal rather than running it
// again, ends done, and settles into today's partition of done runs.
func TestARetryOfARunInAnOldPartitionRunsItAgain(t *testing.T) {
	ctx := context.Background()
	pool, clock := frozenPartitions(t, time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
	var stepRuns, attempts atomic.Int32
	j := pipeline.MustJob("retried-later", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if _, err := pipeline.Step(ctx, "once", func(context.Context) (int, error) { return int(stepRuns.Add(1)), nil }); err != nil {
			return 0, err
		}
		if attempts.Add(1) == 1 {
			return 0, errors.New("the first attempt fails")
		}
		return 1, nil
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 1}})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, err := j.Enqueue(ctx, pool, noInput{K: "old"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, "dead")
	if n := scalar[int64](t, pool, `select count(*) from pipe.runs_dead_20260302 where id = $1`, res.ID); n != 1 {
		t.Fatalf("the dead run is not in its week's partition (%d)", n)
	}

	clock.Advance(t, 10*aDay)
	if _, err := pipeline.EnsurePartitions(ctx, pool); err != nil {
		t.Fatal(err)
	}
	if err := pipeline.NewAdmin(pool).Requeue(ctx, res.ID); err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, "done")
	if stepRuns.Load() != 1 || attempts.Load() != 2 {
		t.Fatalf("the step ran %d times over %d attempts; want once over 2", stepRuns.Load(), attempts.Load())
	}
	if n := scalar[int64](t, pool, `select count(*) from pipe.runs_done_20260312 where id = $1`, res.ID); n != 1 {
		t.Fatal("the retried run did not settle into today's partition")
	}
	var open, elsewhere int64
	if err := pool.QueryRow(ctx, `select count(*) filter (where run_state = 'open'),
			count(*) filter (where run_state <> 'done' or run_finished_at < '2026-03-12')
		from pipe.run_events where job_id = $1`, res.ID).Scan(&open, &elsewhere); err != nil {
		t.Fatal(err)
	}
	if open != 0 || elsewhere != 0 {
		t.Fatalf("%d journal rows left open and %d away from the run's partition", open, elsewhere)
	}
}

// TestABigPartitionsPurgeIsItsStatisticsCount: a dropped day of more than
// 100,000 runs (here, lowered, 1,000) is counted from its statistics
// (reading it whole was half of the drop's time), within 1% of its runs and
// said to be an estimate; a small one is counted exactly (the midnight
// test).
func TestABigPartitionsPurgeIsItsStatisticsCount(t *testing.T) {
	ctx := context.Background()
	pipeline.SetPurgeCountedBelow(t, 1_000)
	day := time.Date(2026, 3, 29, 12, 0, 0, 0, time.UTC)
	pool, clock := frozenPartitions(t, day)
	j := churnJob()
	startWorker(t, pool, pipeline.WorkerConfig{Clock: clock, Lease: time.Hour}, j)
	one, err := j.Enqueue(ctx, pool, noInput{K: "one"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, one.ID, pipeline.StateDone)
	const copies = 3_000
	if _, err := pool.Exec(ctx, `insert into pipe.runs
		select (jsonb_populate_record(null::pipe.runs, to_jsonb(r) ||
			jsonb_build_object('id', gen_random_uuid(), 'idem_key', 'copy-' || g))).*
		from pipe.runs r, generate_series(1, $2::int) g where r.id = $1`, one.ID, copies); err != nil {
		t.Fatal(err)
	}
	// The inserting session's statistics reach the shared counters when it
	// next idles (PostgreSQL 15 flushes them at most once a second): a
	// VACUUM that set the live count before they came was counted twice
	// (6,002 for 3,001, a CI run). A day is vacuumed long after it is
	// written; the test waits as that wait would.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var live int64
		if err := pool.QueryRow(ctx, `select coalesce(sum(n_live_tup), 0)::bigint from pg_stat_all_tables
			where relid = 'pipe.runs_done_20260329'::regclass`).Scan(&live); err != nil {
			t.Fatal(err)
		}
		if live >= copies+1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the statistics count %d live runs of %d after 30 s", live, copies+1)
		}
	}
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `vacuum analyze pipe.runs_done_20260329`); err != nil {
		t.Fatal(err)
	}
	clock.Advance(t, 3*aDay)
	m, err := pipeline.Maintain(ctx, pool, pipeline.Retention{Done: 2 * aDay, Dead: 90 * aDay})
	if err != nil {
		t.Fatal(err)
	}
	if hasPartition(t, pool, "runs_done_20260329") {
		t.Fatal("the day's partition outlived its retention")
	}
	if want := int64(copies + 1); !m.PurgedEstimated || m.Purged < want*99/100 || m.Purged > want*101/100 {
		t.Errorf("the pass purged %d runs (estimated %v); want an estimate within 1%% of %d", m.Purged, m.PurgedEstimated, want)
	}
}
