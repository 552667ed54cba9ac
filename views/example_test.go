package views_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/views"
)

// A refresh declared once, run by a worker, enqueued every ten minutes by
// a task whose scheduler runs beside the worker, and once now.
func ExampleRefresh() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	if _, err := pool.Exec(ctx, `create table posts (id int primary key, author text not null);
		insert into posts values (1, 'ada');
		create materialized view post_totals as select author, count(*) as posts from posts group by author;
		create unique index on post_totals (author);
		insert into posts values (2, 'ada'), (3, 'grace')`); err != nil {
		log.Fatal(err)
	}

	refreshTotals := views.MustRefresh(views.Options{Name: "refresh-post-totals", View: pg.Relation{Name: "post_totals"}, Concurrently: true})
	every10m := pipeline.MustTask("post-totals-every-10m", "*/10 * * * *", "UTC",
		[]pipeline.TaskEntry{pipeline.Entry(refreshTotals, func(pipeline.Occurrence) views.Request { return views.Request{} })})
	reg, err := pipeline.NewRegistry(refreshTotals)
	if err != nil {
		log.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Start(ctx); err != nil { // refuses to start if post_totals is not a materialized view with a unique index
		log.Fatal(err)
	}
	defer func() { _ = w.Shutdown(context.Background()) }()
	s, err := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: []*pipeline.Task{every10m}})
	if err != nil {
		log.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer func() { _ = s.Stop(context.Background()) }()

	res, err := refreshTotals.Enqueue(ctx, pool, views.Request{}) // now, rather than at the next tenth minute
	if err != nil {
		log.Fatal(err)
	}
	admin := pipeline.NewAdmin(pool)
	run, err := admin.Show(ctx, res.ID)
	for err == nil && run.State.Live() {
		time.Sleep(50 * time.Millisecond)
		run, err = admin.Show(ctx, res.ID)
	}
	if err != nil {
		log.Fatal(err)
	}
	rows, _ := pool.Query(ctx, `select format('%s %s', author, posts) from post_totals order by author`)
	totals, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.Name, run.State)
	for _, t := range totals {
		fmt.Println(t)
	}
	// Output:
	// refresh-post-totals done
	// ada 2
	// grace 1
}
