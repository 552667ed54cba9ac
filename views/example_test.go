package views_test

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/views"
)

// A refresh declared once, run by a worker, enqueued every ten minutes by
// a task (the task's scheduler runs beside the worker).
func ExampleRefresh() {
	refreshTotals := views.MustRefresh(views.Options{Name: "refresh-post-totals", View: pg.Relation{Name: "post_totals"}, Concurrently: true})
	every10m := pipeline.MustTask("post-totals-every-10m", "*/10 * * * *", "UTC",
		[]pipeline.TaskEntry{pipeline.Entry(refreshTotals, func(pipeline.Occurrence) views.Request { return views.Request{} })})

	run := func(ctx context.Context, pool *pgxpool.Pool) error {
		reg, err := pipeline.NewRegistry(refreshTotals)
		if err != nil {
			return err
		}
		w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
		if err != nil {
			return err
		}
		if err := w.Start(ctx); err != nil { // refuses to start if post_totals is not a materialized view with a unique index
			return err
		}
		s, err := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: []*pipeline.Task{every10m}})
		if err != nil {
			return err
		}
		return s.Start(ctx)
	}
	_ = run
	fmt.Println(refreshTotals.Name(), every10m.Cron())
	// Output: refresh-post-totals */10 * * * *
}
