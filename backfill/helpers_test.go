package backfill_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// ordersDDL is the table most tests walk: total_cents to fill from total,
// and a trigger that counts every update of each row in touches.
const ordersDDL = `
create table orders (id bigint primary key, total numeric not null, total_cents bigint);
create table touches (id bigint primary key, n int not null);
create function touch() returns trigger language plpgsql as $$
begin
    insert into touches values (new.id, 1) on conflict (id) do update set n = touches.n + 1;
    return new;
end $$;
create trigger orders_touch after update on orders for each row execute function touch();`

// setup answers a fresh database holding orders with rows rows.
func setup(t testing.TB, rows int) *pgxpool.Pool {
	t.Helper()
	pool := fixtures.DB(t)
	exec(t, pool, ordersDDL)
	exec(t, pool, `insert into orders (id, total) select g, g / 100.0 from generate_series(1, $1) g`, rows)
	exec(t, pool, `analyze orders`)
	return pool
}

func exec(t testing.TB, pool *pgxpool.Pool, sql string, args ...any) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", strings.TrimSpace(sql), err)
	}
}

func scalar[T any](t testing.TB, pool *pgxpool.Pool, sql string, args ...any) T {
	t.Helper()
	var v T
	if err := pool.QueryRow(context.Background(), sql, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// fill is the SQL pass of most tests.
const fill = `update orders set total_cents = round(total * 100) where id between $1 and $2`

// fillOptions declares the SQL pass over orders.
func fillOptions() backfill.Options[Req] {
	return backfill.Options[Req]{
		Table: pg.Relation{Name: "orders"},
		SQL:   fill,
		Batch: 100,
		Job:   pipeline.JobOptions[Req, backfill.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	}
}

// Req is the tests' input: a pass's label.
type Req struct {
	Label string `json:"label"`
}

func reqKey(r Req) string { return r.Label }

func mustNew(t testing.TB, name string, o backfill.Options[Req]) *pipeline.Job[Req, backfill.Result] {
	t.Helper()
	j, err := backfill.New(name, reqKey, o)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// assertEachOnce fails unless every row of orders was updated exactly once
// and holds its cents.
func assertEachOnce(t testing.TB, pool *pgxpool.Pool, rows int) {
	t.Helper()
	if n := scalar[int64](t, pool, `select count(*) from touches where n = 1`); n != int64(rows) {
		twice := scalar[int64](t, pool, `select count(*) from touches where n > 1`)
		t.Fatalf("%d of %d rows were updated once (%d more than once)", n, rows, twice)
	}
	if n := scalar[int64](t, pool, `select count(*) from orders where total_cents is distinct from round(total * 100)`); n != 0 {
		t.Fatalf("%d rows do not hold their cents", n)
	}
}

// awaitLedger waits until the pass of runID is in state, answering it.
func awaitLedger(t testing.TB, pool *pgxpool.Pool, runID string, ok func(backfill.Pass) bool) backfill.Pass {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		p, err := backfill.Show(context.Background(), pool, runID)
		if err == nil && ok(p) {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pass never reached the awaited state: last %+v (%v)", p, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMain(m *testing.M) {
	fixtures.ChildMain(map[string]fixtures.ChildFunc{"worker": func(ctx context.Context, pool *pgxpool.Pool) error {
		o := fillOptions()
		o.Rate = 2000 // slow enough to be killed mid-pass
		return fixtures.WorkUntilKilled(ctx, pool, backfill.MustNew("test.fill", reqKey, o))
	}})
	os.Exit(m.Run())
}
