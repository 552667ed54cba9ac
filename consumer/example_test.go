package consumer_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type VendorOrder struct {
	ID     string `json:"id"`
	Cursor string `json:"cursor"`
}

// A consumer per connected account, its cursor kept in pipe, re-armed every
// minute; the worker and the scheduler run it. Here the vendor's stream is
// a channel holding two orders, and the account's run ends with it.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	if _, err := pool.Exec(ctx, `create table accounts (id text primary key, connected bool not null);
		create table orders (id text primary key, account text not null);
		insert into accounts values ('acme', true), ('globex', false)`); err != nil {
		log.Fatal(err)
	}
	orders := make(chan VendorOrder, 2)
	orders <- VendorOrder{ID: "o-1", Cursor: "c-1"}
	orders <- VendorOrder{ID: "o-2", Cursor: "c-2"}
	close(orders)

	syncOrders := consumer.MustNew(consumer.Options[VendorOrder, string]{
		Name: "sync-orders",
		Keys: func(ctx context.Context, tx pgx.Tx) ([]string, error) {
			rows, _ := tx.Query(ctx, `select id from accounts where connected`)
			return pgx.CollectRows(rows, pgx.RowTo[string])
		},
		Open: func(ctx context.Context, key, cursor string) (consumer.Feed[VendorOrder], error) {
			return consumer.FromChan(orders), nil // the vendor's stream from cursor on
		},
		Handle: func(ctx context.Context, tx pgx.Tx, key string, items []VendorOrder) (string, error) {
			for _, o := range items {
				if _, err := tx.Exec(ctx, `insert into orders (id, account) values ($1, $2) on conflict do nothing`, o.ID, key); err != nil {
					return "", err
				}
			}
			return items[len(items)-1].Cursor, nil
		},
		Cursor: consumer.StoredCursor[string](),
		Batch:  100,
		Rearm:  time.Minute,
	})
	reg, err := pipeline.NewRegistry(syncOrders.Jobs()...)
	if err != nil {
		log.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	s, err := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: []*pipeline.Task{syncOrders.Supervisor()}})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer func() { _ = w.Shutdown(context.Background()) }()
	if err := s.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer func() { _ = s.Stop(context.Background()) }()
	if _, err := syncOrders.Arm(ctx, pool); err != nil { // start the keys now rather than at the next minute
		log.Fatal(err)
	}

	var n int
	for n < 2 {
		time.Sleep(50 * time.Millisecond)
		if err := pool.QueryRow(ctx, `select count(*) from orders`).Scan(&n); err != nil {
			log.Fatal(err)
		}
	}
	rows, _ := pool.Query(ctx, `select id || ' ' || account from orders order by id`)
	synced, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range synced {
		fmt.Println(o)
	}
	// Output:
	// o-1 acme
	// o-2 acme
}

// A declaration is checked whole: every fault is named in one
// X_CONSUMER_INVALID.
func ExampleNew_refused() {
	_, err := consumer.New(consumer.Options[VendorOrder, string]{
		Name:   "sync-orders",
		Keys:   func(context.Context, pgx.Tx) ([]string, error) { return nil, nil },
		Open:   func(context.Context, string, string) (consumer.Feed[VendorOrder], error) { return nil, nil },
		Handle: func(context.Context, pgx.Tx, string, []VendorOrder) (string, error) { return "", nil },
		Batch:  -1,
		Rearm:  7 * time.Minute,
		Job:    pipeline.JobOptions[consumer.Input, consumer.Result]{Timeout: time.Hour},
	})
	e, _ := errcode.As(err)
	fmt.Println(e.Code)
	fmt.Println(e.Message)
	// Output:
	// X_CONSUMER_INVALID
	// consumer sync-orders: Cursor.Load is nil; Cursor.Save is nil; Batch must be a whole number of 1 or more; Rearm 7m0s is not whole minutes dividing an hour (1m, 2m, 3m, 4m, 5m, 6m, 10m, 12m, 15m, 20m, 30m or 60m); Job.Timeout is set: a consumer has no timeout (a run ends when its feed ends or a drain stops it)
}

// A channel is a feed: items as they are sent, the end of the stream once
// it is closed. A read answers at most the items asked for.
func ExampleFromChan() {
	ch := make(chan int, 5)
	for i := 1; i <= 5; i++ {
		ch <- i
	}
	close(ch)
	feed := consumer.FromChan(ch)
	for {
		items, err := feed.Read(context.Background(), 2, consumer.Linger)
		fmt.Println(items, errors.Is(err, io.EOF))
		if err != nil {
			break
		}
	}
	// Output:
	// [1 2] false
	// [3 4] false
	// [5] true
}
