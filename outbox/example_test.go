package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/internal/natstest"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/natsjs"
	"github.com/pipekit/pipe/pipeline"
)

// An order and the event announcing it commit together; a relay publishes
// the event to JetStream once the transaction has committed.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	natsURL, stopNATS := startNATS() // your NATS server, its stream ORDERS taking subject orders
	defer stopNATS()
	if _, err := pool.Exec(ctx, `create table orders (id text primary key, customer text not null)`); err != nil {
		log.Fatal(err)
	}

	tx, err := pool.Begin(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `insert into orders (id, customer) values ($1, $2)`, "o-1", "c-7"); err != nil {
		log.Fatal(err)
	}
	if _, err := outbox.Stage(ctx, tx, outbox.Message{Stream: "orders", Key: "c-7",
		Headers: map[string]string{"type": "order.placed"}, Payload: []byte(`{"id":"o-1"}`)}); err != nil {
		log.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil { // the commit is the publish
		log.Fatal(err)
	}

	pub, err := natsjs.Dial(natsURL, natsjs.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer pub.Close()
	relay := outbox.MustNew(outbox.Options{
		Streams:   []outbox.Stream{{Name: "orders", Ordering: outbox.ByKey}},
		Publisher: pub,
	})
	reg, err := pipeline.NewRegistry(relay.Jobs()...) // and relay.Tasks() with the scheduler
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

	msg := firstMessage(ctx, natsURL, "ORDERS")
	fmt.Println(msg.Subject, msg.Header.Get("type"), string(msg.Data))
	// Output: orders order.placed {"id":"o-1"}
}

// startNATS starts a NATS server with JetStream in the process, and its
// stream ORDERS taking subject orders; stop shuts it down.
func startNATS() (url string, stop func()) {
	url, _, stop = natstest.JetStream(jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders"}})
	return url, stop
}

// firstMessage waits for the first message of stream and answers it.
func firstMessage(ctx context.Context, url, stream string) *jetstream.RawStreamMsg {
	nc, err := nats.Connect(url)
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	s, err := js.Stream(ctx, stream)
	if err != nil {
		log.Fatal(err)
	}
	for {
		msg, err := s.GetMsg(ctx, 1)
		if !errors.Is(err, jetstream.ErrMsgNotFound) {
			if err != nil {
				log.Fatal(err)
			}
			return msg
		}
		time.Sleep(50 * time.Millisecond)
	}
}
