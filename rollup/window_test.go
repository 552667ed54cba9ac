package rollup_test

import (
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/rollup"
)

// A run reads from the first instant of the bucket holding now - lookback:
// a late row inside that window moves its bucket on the next run, a re-run
// over the same rows writes nothing, and the documented limits hold — a row
// older than the window is not counted, and a bucket whose rows were all
// deleted keeps its last value.
func TestLateRowsMoveTheirBucketAndRerunsWriteNothing(t *testing.T) {
	pool := setup(t, likesDDL)
	utc := time.UTC
	clock := fixtures.FreezeClock(t, pool, at(utc, 2026, 6, 10, 15, 0))
	job := rollup.MustNew(rollup.WindowKey, likesDaily("UTC", 48*time.Hour))
	for _, ts := range []time.Time{at(utc, 2026, 6, 8, 0, 0), at(utc, 2026, 6, 9, 12, 0), at(utc, 2026, 6, 10, 9, 0), at(utc, 2026, 6, 10, 14, 59)} {
		like(t, pool, 1, ts)
	}
	like(t, pool, 2, at(utc, 2026, 6, 10, 1, 0))
	like(t, pool, 1, at(utc, 2026, 6, 7, 23, 59)) // before the window: never read

	res := runDone(t, pool, job, rollup.Request{})
	if want := at(utc, 2026, 6, 8, 0, 0); !res.Since.Equal(want) || !res.Now.Equal(clock.Now()) {
		t.Fatalf("window since %s now %s; want since %s (the day holding now - 48h), now the frozen clock", res.Since, res.Now, want)
	}
	if res.Rows != 5 || res.Buckets != 4 || res.Written != 4 {
		t.Fatalf("first run: %+v; want 5 rows read into 4 buckets, all written", res)
	}
	want := []bucketRow{{1, at(utc, 2026, 6, 8, 0, 0), 1}, {1, at(utc, 2026, 6, 9, 0, 0), 1}, {1, at(utc, 2026, 6, 10, 0, 0), 2}, {2, at(utc, 2026, 6, 10, 0, 0), 1}}
	assertRows(t, perDay(t, pool), want)

	again := runDone(t, pool, job, rollup.Request{})
	if again.Rows != 5 || again.Buckets != 4 || again.Written != 0 {
		t.Fatalf("re-run over the same rows: %+v; want the same 4 buckets and none written", again)
	}
	assertRows(t, perDay(t, pool), want)

	// A late row for June 8 (inside the window) moves that bucket; one for
	// June 7 (outside it) is the documented limit.
	like(t, pool, 1, at(utc, 2026, 6, 8, 22, 0))
	like(t, pool, 1, at(utc, 2026, 6, 7, 12, 0))
	late := runDone(t, pool, job, rollup.Request{})
	if late.Written != 1 || likesOf(t, pool, 1, at(utc, 2026, 6, 8, 0, 0)) != 2 {
		t.Fatalf("late row: %+v, June 8 holds %d; want that bucket moved to 2 and only it written", late, likesOf(t, pool, 1, at(utc, 2026, 6, 8, 0, 0)))
	}
	if n := likesOf(t, pool, 1, at(utc, 2026, 6, 7, 0, 0)); n != -1 {
		t.Fatalf("a row older than the window made a bucket of %d", n)
	}

	// The day later the window starts on June 9: June 8 is no longer read.
	clock.Advance(t, 24*time.Hour)
	exec(t, pool, `delete from likes where org_id = 2`)
	next := runDone(t, pool, job, rollup.Request{})
	if !next.Since.Equal(at(utc, 2026, 6, 9, 0, 0)) {
		t.Fatalf("a day later the window starts %s", next.Since)
	}
	if n := likesOf(t, pool, 2, at(utc, 2026, 6, 10, 0, 0)); n != 1 {
		t.Fatalf("org 2's deleted rows: its bucket holds %d; the documented limit keeps the last value, 1", n)
	}
}

// A backfill (Request.From) reads from the bucket holding From, so rows
// older than the lookback are counted when an operator asks.
func TestBackfillReadsFromTheBucketHoldingFrom(t *testing.T) {
	pool := setup(t, likesDDL)
	utc := time.UTC
	fixtures.FreezeClock(t, pool, at(utc, 2026, 6, 10, 15, 0))
	job := rollup.MustNew(rollup.WindowKey, likesDaily("UTC", 48*time.Hour))
	like(t, pool, 1, at(utc, 2026, 5, 1, 10, 0))
	like(t, pool, 1, at(utc, 2026, 6, 10, 10, 0))
	res := runDone(t, pool, job, rollup.Request{From: at(utc, 2026, 5, 1, 18, 0)})
	if !res.Since.Equal(at(utc, 2026, 5, 1, 0, 0)) || res.Buckets != 2 {
		t.Fatalf("backfill: %+v; want since May 1 00:00 and two buckets", res)
	}
	// A From later than now - lookback never narrows the window.
	res = runDone(t, pool, job, rollup.Request{From: at(utc, 2026, 6, 10, 12, 0)})
	if !res.Since.Equal(at(utc, 2026, 6, 8, 0, 0)) {
		t.Fatalf("a late From narrowed the window to %s", res.Since)
	}
}

// Source.Where filters the rows with the run's Args, numbered before the
// statement's own parameters.
func TestWhereFiltersWithArgs(t *testing.T) {
	pool := setup(t, likesDDL)
	fixtures.FreezeClock(t, pool, at(time.UTC, 2026, 6, 10, 15, 0))
	o := likesDaily("UTC", 24*time.Hour)
	o.Source.Where = "org_id <> $1 and weight < $2"
	o.Args = func(rollup.Request) []any { return []any{2, 5} }
	like(t, pool, 1, at(time.UTC, 2026, 6, 10, 1, 0))
	like(t, pool, 2, at(time.UTC, 2026, 6, 10, 1, 0))
	exec(t, pool, `insert into likes (org_id, weight, created_at) values (3, 9, '2026-06-10T02:00Z')`)
	res := runDone(t, pool, rollup.MustNew(rollup.WindowKey, o), rollup.Request{})
	if rows := perDay(t, pool); res.Rows != 1 || len(rows) != 1 || rows[0].Org != 1 {
		t.Fatalf("filtered run: %+v, rows %v; want org 1 only", res, rows)
	}
}

func assertRows(t testing.TB, got, want []bucketRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("rows %v; want %v", got, want)
	}
	for i := range got {
		if got[i].Org != want[i].Org || !got[i].Day.Equal(want[i].Day) || got[i].Likes != want[i].Likes {
			t.Fatalf("rows %v; want %v", got, want)
		}
	}
}
