package pipeline_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type Order struct {
	ID string `json:"id"`
}

type Charge struct {
	ID string `json:"id"`
}

// A checkout charges, then ships; the carrier refuses for good, so the
// charge is refunded. The refund takes the charge step's own result type,
// and the declaration's OnSettled hears how the run ended.
func ExampleStepWithCompensation() {
	ctx := context.Background()
	pool, drop := fixtures.ExampleDB() // your application's pool, migrated by pipeline.Migrate
	defer drop()
	errcode.Register("X_EXAMPLE_CARRIER_REFUSED", errcode.Terminal)
	refunds, endings := make(chan string, 1), make(chan pipeline.Outcome, 1)
	checkout := pipeline.MustJob("example-checkout", func(o Order) string { return o.ID },
		func(ctx context.Context, run *pipeline.Run[Order]) (string, error) {
			charge, err := pipeline.StepWithCompensation(ctx, "charge",
				func(ctx context.Context) (Charge, error) { return Charge{ID: "ch_1"}, nil },
				func(ctx context.Context, c Charge) error { refunds <- c.ID; return nil }) // undo: typed by the step
			if err != nil {
				return "", err
			}
			_, err = pipeline.Step(ctx, "ship", func(ctx context.Context) (int, error) {
				return 0, errcode.New("X_EXAMPLE_CARRIER_REFUSED", "the carrier refused the parcel")
			})
			return charge.ID, err
		},
		pipeline.JobOptions[Order, string]{
			Compensates: true,
			OnSettled: func(ctx context.Context, s pipeline.Settled[Order, string]) error {
				endings <- s.Outcome
				return nil
			},
		})
	if _, err := checkout.Enqueue(ctx, pool, Order{ID: "o-1"}); err != nil {
		log.Fatal(err)
	}
	reg, _ := pipeline.NewRegistry(checkout)
	worker, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	_ = worker.Start(ctx)
	defer func() { _ = worker.Shutdown(ctx) }()
	for range 2 {
		select {
		case id := <-refunds:
			fmt.Println("refunded", id)
		case outcome := <-endings:
			fmt.Println(outcome)
		case <-time.After(time.Minute):
			log.Fatal("the run did not end")
		}
	}
	// Output:
	// refunded ch_1
	// dead-lettered
}
