package outbox_test

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/natsjs"
	"github.com/pipekit/pipe/pipeline"
)

// An order and the event announcing it commit together; a relay publishes
// the event to JetStream once the transaction has committed.
func Example() {
	ctx := context.Background()
	pool, _ := pgxpool.New(ctx, "postgres://localhost/app")

	tx, _ := pool.Begin(ctx)
	defer tx.Rollback(ctx)
	_, _ = tx.Exec(ctx, `insert into orders (id, customer) values ($1, $2)`, "o-1", "c-7")
	_, _ = outbox.Stage(ctx, tx, outbox.Message{Stream: "orders", Key: "c-7",
		Headers: map[string]string{"type": "order.placed"}, Payload: []byte(`{"id":"o-1"}`)})
	_ = tx.Commit(ctx) // the commit is the publish

	pub, _ := natsjs.Dial("nats://127.0.0.1:4222", natsjs.Options{})
	relay := outbox.MustNew(outbox.Options{
		Streams:   []outbox.Stream{{Name: "orders", Ordering: outbox.ByKey}},
		Publisher: pub,
	})
	reg, _ := pipeline.NewRegistry(relay.Jobs()...)
	w, _ := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	_ = w.Start(ctx)
	_, _ = relay.Arm(ctx, pool)
}
