package pipecli_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// The stock pipe keeps its own tables bounded: pipe tasks list declares
// the hourly pipe.maintain task, pipe worker arms it and runs its job at
// the default retention (a done run 16 days old is purged, one of 14 days
// kept); an application's own pipe.maintain replaces the stock one, and
// NoMaintenance leaves it out.
func TestTheStockPipeMaintainsItsTables(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tasks := func(opts pipecli.Options) []pipeline.TaskRow {
		t.Helper()
		r := loud(t.Context(), opts, "--database-url", b.url, "tasks", "list", "--json")
		wantOK(t, r)
		var rows []pipeline.TaskRow
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
			t.Fatal(err)
		}
		return rows
	}
	rows := tasks(pipecli.Options{})
	if len(rows) != 1 || rows[0].Task != "pipe.maintain" || !rows[0].Declared || rows[0].Cron != "0 * * * *" || rows[0].Zone != "UTC" {
		t.Fatalf("the stock pipe's tasks: %+v; want pipe.maintain, hourly, UTC", rows)
	}
	if rows := tasks(pipecli.Options{NoMaintenance: true}); len(rows) != 0 {
		t.Fatalf("with NoMaintenance the tasks are %+v; want none", rows)
	}

	// Two done runs, finished today and two days on; the clock then moves
	// 16 days on, so that they are 16 and 14 days old: the default retention
	// is 14 days, and a run is dropped with its day's partition once the
	// whole day is past it.
	demo := pipecli.DemoJob()
	var old []string
	for _, days := range []int{0, 2} {
		id := b.enqueueDemo(t, "aged")
		if _, err := b.pool.Exec(t.Context(), `update pipe.runs set state = 'done', finished_at = now() + make_interval(days => $2) where id = $1`, id, days); err != nil {
			t.Fatal(err)
		}
		old = append(old, id)
	}
	fixtures.FreezeClock(t, b.pool, time.Now().Add(16*24*time.Hour))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		done <- loud(ctx, pipecli.Options{Jobs: []pipeline.Registrable{demo}}, "--database-url", b.url, "worker")
	}()
	waitFor(t, "the worker's scheduler to arm pipe.maintain", func() bool { return b.armed(t, "pipe.maintain") })
	// The hour's fire, as the task enqueues it.
	res, err := pipeline.MaintenanceJob(pipeline.Retention{}).Enqueue(t.Context(), b.pool, pipeline.MaintenanceInput{Hour: time.Now().UTC().Truncate(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if d := b.waitSettled(t, res.ID); d.State != "done" {
		t.Fatalf("the worker ran pipe.maintain to %s", d.State)
	}
	cancel()
	wantOK(t, <-done)
	var left []string
	rowsLeft, err := b.pool.Query(t.Context(), `select id::text from pipe.jobs where id = any($1::uuid[]) order by finished_at`, old)
	if err != nil {
		t.Fatal(err)
	}
	for rowsLeft.Next() {
		var id string
		_ = rowsLeft.Scan(&id)
		left = append(left, id)
	}
	if len(left) != 1 || left[0] != old[1] {
		t.Fatalf("after maintenance the aged runs left are %v; want only the 14-day-old %s", left, old[1])
	}

	// An application's own maintenance, at its own retention, is the one
	// job and the one task of the name.
	own := pipeline.MaintenanceJob(pipeline.Retention{Done: time.Hour})
	opts := pipecli.Options{Jobs: []pipeline.Registrable{own}, Tasks: []*pipeline.Task{pipeline.MaintenanceTask(own)}}
	r := loud(t.Context(), opts, "--database-url", b.url, "jobs", "manifest", "--json")
	wantOK(t, r)
	var manifest []pipeline.Manifest
	if err := json.Unmarshal([]byte(r.stdout), &manifest); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range manifest {
		if m.Name == "pipe.maintain" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the manifest holds %d pipe.maintain jobs; want the application's alone", n)
	}
	if rows := tasks(opts); len(rows) != 1 || rows[0].Task != "pipe.maintain" {
		t.Fatalf("with the application's own maintenance the tasks are %+v", rows)
	}
}
