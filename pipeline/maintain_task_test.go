package pipeline_test

import (
	"context"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

func TestMaintenanceJobPurgesAsAJob(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	old := payloadJob("old")
	res, _ := old.Enqueue(ctx, pool, payload{K: "a"})
	if _, err := pool.Exec(ctx, `update pipe.jobs set state = 'done', finished_at = now() - interval '20 days' where id = $1`, res.ID); err != nil {
		t.Fatal(err)
	}
	job := pipeline.MaintenanceJob(pipeline.Retention{})
	if task := pipeline.MaintenanceTask(job); task.Next(time.Date(2026, 1, 1, 10, 30, 0, 0, time.UTC)) != time.Date(2026, 1, 1, 11, 0, 0, 0, time.UTC) {
		t.Fatal("the maintenance task is not hourly")
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, job)
	m, _ := job.Enqueue(ctx, pool, pipeline.MaintenanceInput{Hour: time.Now().Truncate(time.Hour)})
	d := awaitState(t, pool, m.ID, "done")
	if string(d.Result) != `{"purged": 1, "rolledUp": 0, "workersPurged": 0, "publishedEventsPurged": 0, "webhookDeliveriesPurged": 0}` {
		t.Fatalf("result %s", d.Result)
	}
}
