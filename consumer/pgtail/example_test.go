package pgtail_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

type Order struct {
	ID        int64  `db:"id"`
	AccountID string `db:"account_id"`
	Total     int64  `db:"total"`
}

// A consumer per active account following the orders table: each batch of
// new orders is copied into a ledger and the cursor saved with it. A tail
// never ends; the worker's shutdown stops it.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	if _, err := pool.Exec(ctx, `create table accounts (id text primary key, active bool not null);
		create table orders (id bigserial primary key, account_id text not null, total bigint not null);
		create table ledger (order_id bigint primary key, total bigint not null);
		insert into accounts values ('acme', true), ('globex', false);
		insert into orders (account_id, total) values ('acme', 1200), ('globex', 500), ('acme', 800)`); err != nil {
		log.Fatal(err)
	}

	tail := pgtail.MustNew(pool, pgtail.Options[Order]{
		Table: pg.Relation{Name: "orders"},
		Where: "account_id = $1",
		Args:  func(key string) []any { return []any{key} },
	})
	ledger := consumer.MustNew(consumer.Options[pgtail.Row[Order], int64]{
		Name: "orders.ledger",
		Keys: func(ctx context.Context, tx pgx.Tx) ([]string, error) {
			rows, _ := tx.Query(ctx, `select id from accounts where active`)
			return pgx.CollectRows(rows, pgx.RowTo[string])
		},
		Open: tail.Open,
		Lag:  tail.Lag,
		Handle: func(ctx context.Context, tx pgx.Tx, key string, rows []pgtail.Row[Order]) (int64, error) {
			for _, r := range rows {
				if _, err := tx.Exec(ctx, `insert into ledger (order_id, total) values ($1, $2) on conflict do nothing`,
					r.ID, r.Value.Total); err != nil {
					return 0, err
				}
			}
			return pgtail.Cursor(rows), nil
		},
		Cursor: consumer.StoredCursor[int64](),
	})
	reg, err := pipeline.NewRegistry(ledger.Jobs()...) // and ledger.Supervisor() with the scheduler
	if err != nil {
		log.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer func() { _ = w.Shutdown(context.Background()) }()
	if _, err := ledger.Arm(ctx, pool); err != nil {
		log.Fatal(err)
	}

	var n int
	for n < 2 {
		time.Sleep(50 * time.Millisecond)
		if err := pool.QueryRow(ctx, `select count(*) from ledger`).Scan(&n); err != nil {
			log.Fatal(err)
		}
	}
	rows, _ := pool.Query(ctx, `select format('order %s: %s', order_id, total) from ledger order by order_id`)
	entries, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		fmt.Println(e)
	}
	// Output:
	// order 1: 1200
	// order 3: 800
}
