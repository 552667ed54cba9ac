package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// The stock maintenance job drops the partition of a run past retention
// (16 days on, with the done retention at its default of 14), and the run
// with it, while its worker keeps claiming.
func TestMaintenanceJobPurgesAsAJob(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	old := payloadJob("old")
	job := pipeline.MaintenanceJob(pipeline.Retention{})
	if task := pipeline.MaintenanceTask(job); task.Next(time.Date(2026, 1, 1, 10, 30, 0, 0, time.UTC)) != time.Date(2026, 1, 1, 11, 0, 0, 0, time.UTC) {
		t.Fatal("the maintenance task is not hourly")
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, old, job)
	res, _ := old.Enqueue(ctx, pool, payload{K: "a"})
	awaitState(t, pool, res.ID, "done")
	fixtures.FreezeClock(t, pool, time.Now().Add(16*24*time.Hour))
	m, _ := job.Enqueue(ctx, pool, pipeline.MaintenanceInput{Hour: time.Now().Truncate(time.Hour)})
	d := awaitState(t, pool, m.ID, "done")
	var got pipeline.MaintainResult
	if err := json.Unmarshal(d.Result, &got); err != nil {
		t.Fatal(err)
	}
	if got.Purged != 1 || got.PartitionsDropped < 2 || got.DropsDeferred != 0 || got.PartitionsMade < 1 {
		t.Fatalf("result %s", d.Result)
	}
	if _, err := pipeline.NewAdmin(pool).Show(ctx, res.ID); !errors.Is(err, errcode.JobNotFound) {
		t.Fatalf("the purged run still shows: %v", err)
	}
	if _, err := pipeline.NewAdmin(pool).Show(ctx, m.ID); err != nil {
		t.Fatalf("the maintenance run itself: %v", err)
	}
}
