package pgtail_test

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/pg"
)

type Order struct {
	ID        int64  `db:"id"`
	AccountID string `db:"account_id"`
	Total     int64  `db:"total"`
}

// A consumer per account following the orders table: each batch of new
// orders is copied into a ledger and the cursor saved with it.
func Example() {
	ctx := context.Background()
	pool, _ := pgxpool.New(ctx, "postgres://localhost/app")
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
	_ = ledger.Jobs()       // register with the workers
	_ = ledger.Supervisor() // and with the scheduler
}
