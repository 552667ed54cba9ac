package pipeline_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type Onboard struct {
	OrgID string `json:"orgId"`
}

type Summary struct {
	OrgID string `json:"orgId"`
}

// The README's worked example: a two-step job, enqueued inside the
// transaction that creates the organisation, and run by a worker.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool, migrated by pipeline.Migrate
	defer drop()
	if _, err := pool.Exec(ctx, `create table orgs (id text primary key, onboarded bool not null default false)`); err != nil {
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
				tag, err := tx.Exec(ctx, `update orgs set onboarded = true where id = $1`, org) // the effect and the step's completion commit together
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
	if _, err := tx.Exec(ctx, `insert into orgs (id) values ($1)`, "org-42"); err != nil {
		log.Fatal(err)
	}
	res, err := onboard.Enqueue(ctx, tx, Onboard{OrgID: "org-42"}) // joins the caller's transaction
	if err != nil {
		log.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil { // commit is the enqueue
		log.Fatal(err)
	}

	reg, err := pipeline.NewRegistry(onboard)
	if err != nil {
		log.Fatal(err)
	}
	worker, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	if err := worker.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer func() { _ = worker.Shutdown(context.Background()) }()

	admin := pipeline.NewAdmin(pool) // what `pipe jobs show` reads
	run, err := admin.Show(ctx, res.ID)
	for err == nil && run.State.Live() {
		time.Sleep(50 * time.Millisecond)
		run, err = admin.Show(ctx, res.ID)
	}
	if err != nil {
		log.Fatal(err)
	}
	var onboarded bool
	if err := pool.QueryRow(ctx, `select onboarded from orgs where id = $1`, "org-42").Scan(&onboarded); err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.Name, run.State, string(run.Result))
	fmt.Println("org-42 onboarded:", onboarded)
	// Output:
	// onboard-org done {"orgId": "org-42"}
	// org-42 onboarded: true
}
