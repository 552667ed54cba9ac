package pipeline_test

import (
	"context"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// pipe.now() answers the transaction's now() while pipe.clock is empty, the
// shifted clock once a shift is written and the frozen instant once one is,
// each on the next statement of a connection that read it before: its
// PL/pgSQL plan (migration 0026) is kept for the session, the clock's row
// is read afresh every call.
func TestTheDatabaseClockFollowsPipeClock(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	owner := fixtures.Owner(t, pool)
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	check := func(what, want string) {
		t.Helper()
		var ok bool
		if err := conn.QueryRow(ctx, `select pipe.now() = `+want).Scan(&ok); err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Fatalf("%s: pipe.now() is not %s", what, want)
		}
	}
	write := func(sql string) {
		t.Helper()
		if _, err := owner.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	check("an empty clock", "now()")
	write(`insert into pipe.clock (shift) values (interval '1 hour')`)
	check("a shifted clock", "now() + interval '1 hour'")
	write(`update pipe.clock set frozen_at = '2030-01-02 03:04:05+00'`)
	check("a frozen clock", "'2030-01-02 03:04:05+00'::timestamptz")
	write(`delete from pipe.clock`)
	check("the clock emptied again", "now()")
}

// A scheduler in a child process waits on DatabaseClock. A read that fails
// — the database slow or gone for a moment, as a loaded CI run made it —
// answered the local clock, eleven months past the frozen one, and a wait
// begun on that answer never ended: the PgBouncer leg's scheduler test saw
// no run fire in 20 s. It now answers the last time read, moved on by the
// local clock.
func TestTheDatabaseClockCarriesOnThroughAFailedRead(t *testing.T) {
	pool, proxy := fixtures.FaultyDB(t)
	frozen := time.Date(2026, 1, 1, 0, 0, 30, 0, time.UTC)
	fixtures.FreezeClock(t, pool, frozen)
	clock := pipeline.DatabaseClock(pool, 5*time.Millisecond)
	if got := clock.Now(); !got.Equal(frozen) {
		t.Fatalf("the clock read %s; the database clock stands at %s", got, frozen)
	}
	proxy.Down()
	defer proxy.Up()
	if got := clock.Now(); got.Before(frozen) || got.After(frozen.Add(time.Minute)) {
		t.Fatalf("a failed read answered %s; the database clock stood at %s a moment before", got, frozen)
	}
}

// The first read is the one a scheduler arms its task with: while none has
// answered, a failed read is tried again (up to 5 s), not answered with the
// local clock.
func TestTheDatabaseClockWaitsForItsFirstRead(t *testing.T) {
	pool, proxy := fixtures.FaultyDB(t)
	frozen := time.Date(2026, 1, 1, 0, 0, 30, 0, time.UTC)
	fixtures.FreezeClock(t, pool, frozen)
	clock := pipeline.DatabaseClock(pool, 5*time.Millisecond)
	proxy.Down()
	up := time.AfterFunc(300*time.Millisecond, proxy.Up)
	defer up.Stop()
	defer proxy.Up()
	if got := clock.Now(); !got.Equal(frozen) {
		t.Fatalf("the first read, the database gone for 300 ms, answered %s; the database clock stands at %s", got, frozen)
	}
}
