package consumer_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

type VendorOrder struct {
	ID     string `json:"id"`
	Cursor string `json:"cursor"`
}

// A consumer per connected account, its cursor kept in pipe, re-armed every
// minute; the worker and the scheduler run it.
func Example() {
	ctx := context.Background()
	pool, _ := pgxpool.New(ctx, "postgres://localhost/app")
	orders := make(chan VendorOrder)
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
	reg, _ := pipeline.NewRegistry(syncOrders.Jobs()...)
	w, _ := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	s, _ := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: []*pipeline.Task{syncOrders.Supervisor()}})
	_ = w.Start(ctx)
	_ = s.Start(ctx)
	_, _ = syncOrders.Arm(ctx, pool) // start the keys now rather than at the next minute
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
