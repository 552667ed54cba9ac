package webhookbench

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pipeline"
)

const floorJob = "pipe.bench.webhooks.noop"

// jobFloor times Deliveries runs of a job whose body does nothing, on a
// worker set as the deliveries' is: the job core's share of a delivery
// (its run claimed, completed and counted), which no delivery can cost less
// than, and its CPU time a run.
func jobFloor(ctx context.Context, pool *pgxpool.Pool, o Options, r *Result) error {
	job, err := pipeline.NewJob(floorJob, deliveryKey,
		func(context.Context, *pipeline.Run[delivery]) (struct{}, error) { return struct{}{}, nil },
		pipeline.JobOptions[delivery, struct{}]{Queue: floorJob})
	if err != nil {
		return err
	}
	w, err := workDown(ctx, pool, o, job)
	r.NoopPerSec, r.NoopCPUUs, r.NoopDBCPUUs = w.perSec, w.processUs, w.databaseUs
	return err
}
