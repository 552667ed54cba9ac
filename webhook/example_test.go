package webhook_test

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

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
