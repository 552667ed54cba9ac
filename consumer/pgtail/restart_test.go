package pgtail_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
)

// A consumer over a table tail rides out a restart of PostgreSQL while rows
// are written: every row committed is handled exactly once, in id order.
func TestATailConsumerRidesOutARestart(t *testing.T) {
	ctx := context.Background()
	srv := fixtures.RestartableServer(t)
	pool := srv.DB(t)
	if _, err := pool.Exec(ctx, eventsDDL+`; create table effects (seq bigserial primary key, id bigint not null unique)`); err != nil {
		t.Fatal(err)
	}
	tail := pgtail.MustNew(pool, pgtail.Options[event]{Table: pg.Relation{Name: "events"}, Poll: 2 * time.Millisecond})
	c := consumer.MustNew(consumer.Options[pgtail.Row[event], int64]{
		Name: "events",
		Keys: func(context.Context, pgx.Tx) ([]string, error) { return []string{"all"}, nil },
		Open: tail.Open,
		Handle: func(ctx context.Context, tx pgx.Tx, _ string, rows []pgtail.Row[event]) (int64, error) {
			for _, r := range rows {
				if _, err := tx.Exec(ctx, `insert into effects (id) values ($1)`, r.ID); err != nil {
					return 0, err
				}
			}
			return pgtail.Cursor(rows), nil
		},
		Cursor: consumer.StoredCursor[int64](),
		Batch:  10,
	})
	if _, err := c.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	written := 0
	write := func(n int) {
		for range n {
			for { // a write the restart cut is written again
				if _, err := pool.Exec(ctx, `insert into events (account, body) values ('a', 'b')`); err == nil {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			written++
		}
	}
	write(300)
	srv.Restart(t)
	write(300)
	deadline := time.Now().Add(90 * time.Second)
	var handled, distinct, committed int
	for {
		if err := pool.QueryRow(ctx, `select count(*), count(distinct id), (select count(*) from events) from effects`).Scan(&handled, &distinct, &committed); err == nil && handled >= committed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d rows handled 90 s after the restart", handled, committed)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var inOrder bool
	if err := pool.QueryRow(ctx, `select bool_and(ordered) from (select id > coalesce(lag(id) over (order by seq), 0) as ordered from effects) s`).Scan(&inOrder); err != nil {
		t.Fatal(err)
	}
	if handled != committed || distinct != committed || committed < written || !inOrder {
		t.Fatalf("handled %d (%d distinct) of %d committed (%d written), in id order %v", handled, distinct, committed, written, inOrder)
	}
}
