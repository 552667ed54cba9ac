package jetstream_test

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/jetstream"
)

// One durable pull consumer per account on the ORDERS stream; each batch is
// written to the orders table with its stream sequence as the cursor.
func Example() {
	nc, _ := nats.Connect(nats.DefaultURL)
	src := jetstream.MustNew(nc, jetstream.Options{
		Stream:   "ORDERS",
		Subjects: func(key string) []string { return []string{"orders." + key} },
	})
	sync := consumer.MustNew(consumer.Options[jetstream.Message, uint64]{
		Name: "orders.sync",
		Keys: func(ctx context.Context, tx pgx.Tx) ([]string, error) {
			rows, _ := tx.Query(ctx, `select id from accounts where active`)
			return pgx.CollectRows(rows, pgx.RowTo[string])
		},
		Open: src.Open,
		Lag:  src.Lag,
		Handle: func(ctx context.Context, tx pgx.Tx, key string, msgs []jetstream.Message) (uint64, error) {
			for _, m := range msgs {
				if _, err := tx.Exec(ctx, `insert into orders (account, seq, body) values ($1, $2, $3)
					on conflict (account, seq) do nothing`, key, m.Sequence, m.Data); err != nil {
					return 0, err
				}
			}
			return jetstream.Cursor(msgs), nil
		},
		Cursor: consumer.StoredCursor[uint64](),
	})
	_ = sync.Jobs()
}
