package jetstream_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"
	js "github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/jetstream"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/internal/natstest"
	"github.com/pipekit/pipe/pipeline"
)

// One durable pull consumer per active account on the ORDERS stream; each
// batch is written to the orders table with its stream sequence as the
// cursor. A stream never ends; the worker's shutdown stops the feed.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	natsURL, stopNATS := startNATS() // your NATS server
	defer stopNATS()
	if _, err := pool.Exec(ctx, `create table accounts (id text primary key, active bool not null);
		create table orders (account text, seq bigint, body text not null, primary key (account, seq));
		insert into accounts values ('acme', true), ('globex', false)`); err != nil {
		log.Fatal(err)
	}

	nc, err := nats.Connect(natsURL)
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
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
					on conflict (account, seq) do nothing`, key, m.Sequence, string(m.Data)); err != nil {
					return 0, err
				}
			}
			return jetstream.Cursor(msgs), nil
		},
		Cursor: consumer.StoredCursor[uint64](),
	})
	reg, err := pipeline.NewRegistry(sync.Jobs()...) // and sync.Supervisor() with the scheduler
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
	if _, err := sync.Arm(ctx, pool); err != nil {
		log.Fatal(err)
	}

	var n int
	for n < 2 {
		time.Sleep(50 * time.Millisecond)
		if err := pool.QueryRow(ctx, `select count(*) from orders`).Scan(&n); err != nil {
			log.Fatal(err)
		}
	}
	rows, _ := pool.Query(ctx, `select format('%s #%s %s', account, seq, body) from orders order by seq`)
	synced, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range synced {
		fmt.Println(o)
	}
	// Output:
	// acme #1 {"id":"o-1"}
	// acme #3 {"id":"o-3"}
}

// startNATS starts a NATS server with JetStream in the process, its stream
// ORDERS holding three orders, two of acme's and one of globex's; stop
// shuts it down.
func startNATS() (url string, stop func()) {
	url, j, stop := natstest.JetStream(js.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}})
	for i, account := range []string{"acme", "globex", "acme"} {
		if _, err := j.Publish(context.Background(), "orders."+account, fmt.Appendf(nil, `{"id":"o-%d"}`, i+1)); err != nil {
			stop()
			log.Fatal(err)
		}
	}
	return url, stop
}
