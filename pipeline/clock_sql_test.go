package pipeline_test

import (
	"context"
	"testing"

	"github.com/pipekit/pipe/fixtures"
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
