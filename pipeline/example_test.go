package pipeline_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/pipeline"
)

type Onboard struct {
	OrgID string `json:"orgId"`
}

type Summary struct {
	OrgID string `json:"orgId"`
}

// The README's worked example: a two-step job, enqueued inside the caller's
// transaction and run by a worker.
func Example() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres://postgres@127.0.0.1:5432/postgres")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := pipeline.Migrate(ctx, pool); err != nil {
		log.Fatal(err)
	}
	onboard := pipeline.MustJob("onboard-org",
		func(in Onboard) string { return "onboard:" + in.OrgID }, // the idempotency key: required
		func(ctx context.Context, run *pipeline.Run[Onboard]) (Summary, error) {
			org, err := pipeline.Step(ctx, "provision", func(ctx context.Context) (string, error) {
				return run.Input.OrgID, nil // runs once ever per run; replays answer the stored result
			})
			if err != nil {
				return Summary{}, err
			}
			_, err = pipeline.StepTx(ctx, "mark-onboarded", func(ctx context.Context, tx pgx.Tx) (int64, error) {
				tag, err := tx.Exec(ctx, `select 1`) // the effect and the step's completion commit together
				return tag.RowsAffected(), err
			})
			return Summary{OrgID: org}, err
		},
		pipeline.JobOptions[Onboard, Summary]{Retry: &pipeline.Retry{Attempts: 5}, Timeout: time.Minute},
	)

	tx, err := pool.Begin(ctx)
	if err != nil {
		log.Fatal(err)
	}
	res, err := onboard.Enqueue(ctx, tx, Onboard{OrgID: "org-42"}) // joins the caller's transaction
	if err != nil {
		log.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil { // commit is the enqueue
		log.Fatal(err)
	}

	reg, _ := pipeline.NewRegistry(onboard)
	worker, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	_ = worker.Start(ctx)
	defer func() { _ = worker.Shutdown(ctx) }()

	run, err := pipeline.NewAdmin(pool).Show(ctx, res.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.Name, run.State != "")
}
