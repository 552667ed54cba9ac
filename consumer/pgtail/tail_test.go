package pgtail_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
)

type event struct {
	ID      int64  `db:"id"`
	Account string `db:"account"`
	Body    string `db:"body"`
}

const eventsDDL = `create table events (id bigserial primary key, account text not null, body text not null)`

func setup(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool := fixtures.DB(t)
	if _, err := pool.Exec(context.Background(), eventsDDL); err != nil {
		t.Fatal(err)
	}
	return pool
}

func open(t *testing.T, tail *pgtail.Tail[event], cursor int64) consumer.Feed[pgtail.Row[event]] {
	t.Helper()
	f, err := tail.Open(context.Background(), "k", cursor)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

func ids(rows []pgtail.Row[event]) []int64 {
	var out []int64
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}

// A row whose transaction commits after a later row's is not skipped: the
// tail reads neither until the earlier transaction ends, then both, in id
// order. A rolled-back id is passed over.
func TestARowCommittedLateIsNotSkipped(t *testing.T) {
	pool := setup(t)
	ctx := context.Background()
	tail := pgtail.MustNew(pool, pgtail.Options[event]{Table: pg.Relation{Name: "events"}, Poll: 5 * time.Millisecond})
	f := open(t, tail, 0)

	late, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer late.Rollback(ctx)
	if _, err := late.Exec(ctx, `insert into events (account, body) values ('a', 'drawn first, committed last')`); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `insert into events (account, body) values ('a', 'drawn second, committed first')`); err != nil {
		t.Fatal(err)
	}
	rows, err := f.Read(ctx, 10, 200*time.Millisecond)
	if err != nil || len(rows) != 0 {
		t.Fatalf("read %v (%v) while id 1 is in flight; want nothing: reading id 2 would move the cursor past id 1", ids(rows), err)
	}
	if err := late.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err = f.Read(ctx, 10, 5*time.Second)
	if err != nil || len(ids(rows)) != 2 || rows[0].ID != 1 || rows[1].ID != 2 || rows[0].Value.Body != "drawn first, committed last" {
		t.Fatalf("read %v (%v); want ids 1 and 2 in order", ids(rows), err)
	}

	undone, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := undone.Exec(ctx, `insert into events (account, body) values ('a', 'rolled back')`); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `insert into events (account, body) values ('a', 'four')`); err != nil {
		t.Fatal(err)
	}
	if rows, _ := f.Read(ctx, 10, 100*time.Millisecond); len(rows) != 0 {
		t.Fatalf("read %v while id 3 is in flight", ids(rows))
	}
	if err := undone.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err = f.Read(ctx, 10, 5*time.Second)
	if err != nil || len(rows) != 1 || rows[0].ID != 4 {
		t.Fatalf("read %v (%v); want id 4 once id 3 rolled back", ids(rows), err)
	}
}

// Reads answer at most max rows, in id order, resume after the cursor they
// are opened at, filter by Where with the key's Args, and a quiet tail waits
// its wait and answers nothing — never io.EOF: a table does not end.
func TestPagesCursorAndWhere(t *testing.T) {
	pool := setup(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `insert into events (account, body) select case when i % 2 = 0 then 'even' else 'odd' end, 'b' from generate_series(1, 25) i`); err != nil {
		t.Fatal(err)
	}
	tail := pgtail.MustNew(pool, pgtail.Options[event]{Table: pg.Relation{Name: "events"}, Where: "account = $1",
		Args: func(key string) []any { return []any{key} }, Poll: 5 * time.Millisecond})
	f, err := tail.Open(ctx, "even", 4)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for {
		rows, err := f.Read(ctx, 5, 50*time.Millisecond)
		if errors.Is(err, io.EOF) {
			t.Fatal("a table tail answered io.EOF")
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) > 5 {
			t.Fatalf("a read of 5 answered %d", len(rows))
		}
		if len(rows) == 0 {
			break
		}
		got = append(got, ids(rows)...)
	}
	want := []int64{6, 8, 10, 12, 14, 16, 18, 20, 22, 24}
	if len(got) != len(want) {
		t.Fatalf("read %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("read %v; want %v", got, want)
		}
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	lag, err := tail.Lag(ctx, tx, "even", 10)
	if err != nil || lag != 7 {
		t.Fatalf("lag after 10: %d (%v); want the 7 even ids above it", lag, err)
	}
}

// A table the tail cannot follow is X_CONSUMER_SOURCE_INVALID when a feed
// opens: no table, an id without a sequence, a sequence that caches or
// counts down, an unknown column.
func TestUnfollowableTablesAreRefused(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `
		create table plain (id bigint primary key);
		create table cached (id bigserial primary key);
		alter sequence cached_id_seq cache 20;
		create sequence down increment -1;
		create table counted_down (id bigint primary key default nextval('down'));
		create table texted (id text primary key);
		create table fine (id bigint generated always as identity primary key, v text)`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    pgtail.Options[struct{}]
	}{
		{"missing table", pgtail.Options[struct{}]{Table: pg.Relation{Name: "nope"}}},
		{"no sequence", pgtail.Options[struct{}]{Table: pg.Relation{Name: "plain"}}},
		{"cached sequence", pgtail.Options[struct{}]{Table: pg.Relation{Name: "cached"}}},
		{"counting down", pgtail.Options[struct{}]{Table: pg.Relation{Name: "counted_down"}, Sequence: pg.Relation{Name: "down"}}},
		{"text id", pgtail.Options[struct{}]{Table: pg.Relation{Name: "texted"}}},
		{"no such id", pgtail.Options[struct{}]{Table: pg.Relation{Name: "fine"}, ID: "nope"}},
		{"no such column", pgtail.Options[struct{}]{Table: pg.Relation{Name: "fine"}, Columns: []string{"w"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pgtail.MustNew(pool, tc.o).Open(ctx, "k", 0)
			if !errors.Is(err, errcode.ConsumerSourceInvalid) {
				t.Fatalf("Open: %v; want X_CONSUMER_SOURCE_INVALID", err)
			}
		})
	}
	if _, err := pgtail.MustNew(pool, pgtail.Options[struct{}]{Table: pg.Relation{Name: "fine"}, Columns: []string{"v"}}).Open(ctx, "k", 0); err != nil {
		t.Fatalf("an identity column: %v", err)
	}
	if _, err := pgtail.New[struct{}](pool, pgtail.Options[struct{}]{}); !errors.Is(err, errcode.ConsumerInvalid) {
		t.Fatalf("New without a table: %v", err)
	}
}
