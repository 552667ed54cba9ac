package webhook_test

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// Notify every subscribed endpoint that an order was paid: one run per
// endpoint, each signed with the endpoint's secrets, recorded in the stock
// ledger, and the endpoint disabled after 10 failed runs in a row.
func ExampleNew() {
	type Delivery struct {
		EndpointID string `json:"endpointId"`
		OrderID    string `json:"orderId"`
	}
	declare := func(pool *pgxpool.Pool) error {
		store := webhook.NewStore(pool)
		deliver, err := webhook.New("orders.paid", func(d Delivery) string { return d.EndpointID + "/" + d.OrderID },
			webhook.Options[Delivery]{
				Endpoint: func(ctx context.Context, d Delivery) (webhook.Endpoint, error) {
					return store.Endpoint(ctx, d.EndpointID)
				},
				Event: func(_ context.Context, d Delivery) (webhook.Event, error) {
					return webhook.Event{ID: "order-paid-" + d.OrderID, Topic: "orders.paid", Body: []byte(`{"orderId":"` + d.OrderID + `"}`)}, nil
				},
				Ledger: webhook.PostgresLedger(pool),
				Health: store,
			})
		if err != nil {
			return err
		}
		subscribers := []string{"acme", "globex"}
		ins := make([]Delivery, len(subscribers))
		for i, id := range subscribers {
			ins[i] = Delivery{EndpointID: id, OrderID: "o-1001"}
		}
		_, err = deliver.EnqueueMany(context.Background(), pool, ins)
		return err
	}
	_ = declare
	fmt.Println(webhook.DefaultDisableAfter, webhook.SignStandard)
	// Output: 10 standard
}

// Notify the subscribed endpoints through the outbox: the deliveries commit
// with the order, a relay posts them a batch at a time, and only those not
// delivered become runs of the webhook's job.
func ExampleNewStaged() {
	type Delivery struct {
		EndpointID string `json:"endpointId"`
		OrderID    string `json:"orderId"`
	}
	declare := func(ctx context.Context, pool *pgxpool.Pool) error {
		store := webhook.NewStore(pool)
		staged, err := webhook.NewStaged("orders.paid", func(d Delivery) string { return d.EndpointID + "/" + d.OrderID }, pool,
			webhook.Options[Delivery]{
				Endpoint: func(ctx context.Context, d Delivery) (webhook.Endpoint, error) {
					return store.Endpoint(ctx, d.EndpointID)
				},
				Event: func(_ context.Context, d Delivery) (webhook.Event, error) {
					return webhook.Event{ID: "order-paid-" + d.OrderID, Topic: "orders.paid", Body: []byte(`{"orderId":"` + d.OrderID + `"}`)}, nil
				},
				Ledger: webhook.PostgresLedger(pool),
				Health: store,
			})
		if err != nil {
			return err
		}
		relay, err := outbox.New(outbox.Options{Name: "orders.paid.relay", Streams: []outbox.Stream{staged.Stream()}})
		if err != nil {
			return err
		}
		reg, err := pipeline.NewRegistry(append(relay.Jobs(), staged.Job())...)
		if err != nil {
			return err
		}
		w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
		if err != nil {
			return err
		}
		if err := w.Start(ctx); err != nil {
			return err
		}
		if _, err := relay.Arm(ctx, pool); err != nil {
			return err
		}
		tx, err := pool.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		// … the order's own writes in tx …
		if err := staged.Stage(ctx, tx, Delivery{"acme", "o-1001"}, Delivery{"globex", "o-1001"}); err != nil {
			return err
		}
		return tx.Commit(ctx)
	}
	_ = declare
	fmt.Println(webhook.StagedHold)
	// Output: 30s
}
