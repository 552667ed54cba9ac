package pipeline

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// MaintenanceInput is the input of the maintenance job: the hour it runs for,
// which is also its idempotency key.
type MaintenanceInput struct {
	Hour time.Time `json:"hour"`
}

// MaintenanceJob answers the job that runs Maintain with r in two steps: the
// housekeeping and the partitions ahead in one transaction ("maintain"),
// then the retention on the worker's pool ("retention"), so that each
// expired partition is detached concurrently and no claim, enqueue or
// settle waits on it.
func MaintenanceJob(r Retention) *Job[MaintenanceInput, MaintainResult] {
	return MustJob("pipe.maintain",
		func(in MaintenanceInput) string { return "maintain:" + in.Hour.UTC().Format(time.RFC3339) },
		func(ctx context.Context, run *Run[MaintenanceInput]) (MaintainResult, error) {
			m, err := StepTx(ctx, "maintain", func(ctx context.Context, tx pgx.Tx) (MaintainResult, error) {
				return housekeep(ctx, tx, r)
			})
			if err != nil {
				return m, err
			}
			pool := runFrom(ctx).w.store.pool
			return Step(ctx, "retention", func(ctx context.Context) (MaintainResult, error) {
				err := applyRetention(ctx, pool, r, &m)
				return m, err
			})
		})
}

// MaintenanceTask answers the hourly task that enqueues job (a
// MaintenanceJob): register both, the job with the worker and the task with
// the scheduler.
func MaintenanceTask(job *Job[MaintenanceInput, MaintainResult]) *Task {
	return MustTask("pipe.maintain", "0 * * * *", "UTC", []TaskEntry{
		Entry(job, func(o Occurrence) MaintenanceInput { return MaintenanceInput{Hour: o.At} }),
	})
}
