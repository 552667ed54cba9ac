package webhook_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// Delivery is the examples' delivery: one order's event to one endpoint.
type Delivery struct {
	EndpointID string `json:"endpointId"`
	OrderID    string `json:"orderId"`
}

// Notify every subscribed endpoint that an order was paid: one run per
// endpoint, each signed with the endpoint's secrets, recorded in the stock
// ledger, and the endpoint disabled after 10 failed runs in a row.
func ExampleNew() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	subscribers := startEndpoints() // the subscribers' servers, here one local server
	defer subscribers.Close()
	store := webhook.NewStore(pool)
	for _, id := range []string{"acme", "globex"} {
		// http:// and private addresses are refused unless allowed, as here and in Options.
		if _, err := store.Add(ctx, id, subscribers.URL+"/"+id, true, true); err != nil {
			log.Fatal(err)
		}
	}

	deliver, err := webhook.New("orders.paid", func(d Delivery) string { return d.EndpointID + "/" + d.OrderID },
		webhook.Options[Delivery]{
			Endpoint: func(ctx context.Context, d Delivery) (webhook.Endpoint, error) {
				return store.Endpoint(ctx, d.EndpointID)
			},
			Event: func(_ context.Context, d Delivery) (webhook.Event, error) {
				return webhook.Event{ID: "order-paid-" + d.OrderID, Topic: "orders.paid", Body: []byte(`{"orderId":"` + d.OrderID + `"}`)}, nil
			},
			Ledger:       webhook.PostgresLedger(pool),
			Health:       store,
			AllowHTTP:    true, // for the local server only
			AllowPrivate: true,
		})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := deliver.EnqueueMany(ctx, pool, []Delivery{{"acme", "o-1001"}, {"globex", "o-1001"}}); err != nil {
		log.Fatal(err)
	}

	reg, err := pipeline.NewRegistry(deliver)
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
	for _, d := range subscribers.await(ctx, 2) {
		fmt.Println(d)
	}
	// Output:
	// /acme order-paid-o-1001 {"orderId":"o-1001"}
	// /globex order-paid-o-1001 {"orderId":"o-1001"}
}

// Notify the subscribed endpoints through the outbox: the deliveries commit
// with the order, a relay posts them a batch at a time, and only those not
// delivered become runs of the webhook's job.
func ExampleNewStaged() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	subscribers := startEndpoints() // the subscribers' servers, here one local server
	defer subscribers.Close()
	store := webhook.NewStore(pool)
	for _, id := range []string{"acme", "globex"} {
		if _, err := store.Add(ctx, id, subscribers.URL+"/"+id, true, true); err != nil {
			log.Fatal(err)
		}
	}

	staged, err := webhook.NewStaged("orders.paid", func(d Delivery) string { return d.EndpointID + "/" + d.OrderID }, pool,
		webhook.Options[Delivery]{
			Endpoint: func(ctx context.Context, d Delivery) (webhook.Endpoint, error) {
				return store.Endpoint(ctx, d.EndpointID)
			},
			Event: func(_ context.Context, d Delivery) (webhook.Event, error) {
				return webhook.Event{ID: "order-paid-" + d.OrderID, Topic: "orders.paid", Body: []byte(`{"orderId":"` + d.OrderID + `"}`)}, nil
			},
			Ledger:       webhook.PostgresLedger(pool),
			Health:       store,
			AllowHTTP:    true, // for the local server only
			AllowPrivate: true,
		})
	if err != nil {
		log.Fatal(err)
	}
	relay, err := outbox.New(outbox.Options{Name: "orders.paid.relay", Streams: []outbox.Stream{staged.Stream()}})
	if err != nil {
		log.Fatal(err)
	}
	reg, err := pipeline.NewRegistry(append(relay.Jobs(), staged.Job())...)
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
	if _, err := relay.Arm(ctx, pool); err != nil {
		log.Fatal(err)
	}

	tx, err := pool.Begin(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	// … the order's own writes in tx …
	if err := staged.Stage(ctx, tx, Delivery{"acme", "o-1001"}, Delivery{"globex", "o-1001"}); err != nil {
		log.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		log.Fatal(err)
	}
	for _, d := range subscribers.await(ctx, 2) {
		fmt.Println(d)
	}
	// Output:
	// /acme order-paid-o-1001 {"orderId":"o-1001"}
	// /globex order-paid-o-1001 {"orderId":"o-1001"}
}

// endpoints is a local HTTP server standing in for the subscribers'
// endpoints: it records each request as its path, event id and body.
type endpoints struct {
	*httptest.Server
	mu       sync.Mutex
	received []string
}

func startEndpoints() *endpoints {
	e := &endpoints{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		defer e.mu.Unlock()
		e.received = append(e.received, r.URL.Path+" "+r.Header.Get(webhook.HeaderID)+" "+string(body))
	}))
	return e
}

// await waits until n requests have come, and answers them sorted: runs
// deliver in any order.
func (e *endpoints) await(ctx context.Context, n int) []string {
	for ctx.Err() == nil {
		e.mu.Lock()
		got := slices.Sorted(slices.Values(e.received))
		e.mu.Unlock()
		if len(got) >= n {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
	log.Fatal(ctx.Err())
	return nil
}
