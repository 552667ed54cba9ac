package pipecli_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
)

// tickJob is a job that does nothing, for tasks to enqueue.
func tickJob() *pipeline.Job[blockInput, struct{}] {
	return pipeline.MustJob("test.tick", func(in blockInput) string { return in.Key },
		func(context.Context, *pipeline.Run[blockInput]) (struct{}, error) { return struct{}{}, nil })
}

// nightly declares a task that fires tickJob at 03:00 in Paris.
func nightly(job *pipeline.Job[blockInput, struct{}]) *pipeline.Task {
	return pipeline.MustTask("test.nightly", "0 3 * * *", "Europe/Paris", []pipeline.TaskEntry{
		pipeline.Entry(job, func(o pipeline.Occurrence) blockInput { return blockInput{Key: o.At.Format(time.RFC3339)} }),
	})
}

// armed reports whether a scheduler has armed the task.
func (b *bundle) armed(t *testing.T, task string) bool {
	t.Helper()
	var n int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pipe.task_state where task = $1`, task).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// taskRow is a row of `pipe tasks list --json`.
type taskRow struct {
	Task           string     `json:"task"`
	Declared       bool       `json:"declared"`
	Cron           string     `json:"cron"`
	Zone           string     `json:"zone"`
	Paused         bool       `json:"paused"`
	LastOccurrence *time.Time `json:"lastOccurrence"`
	FiredAt        *time.Time `json:"firedAt"`
	NextRun        *time.Time `json:"nextRun"`
}

func TestTasksListPauseResume(t *testing.T) {
	t.Parallel()
	b := setup(t)
	job := tickJob()
	task := nightly(job)
	opts := pipecli.Options{Jobs: []pipeline.Registrable{job}, Tasks: []*pipeline.Task{task}}

	// Declared but never armed: listed with its next run; not pausable yet.
	before := time.Now()
	rows := decode[[]taskRow](t, b.pipeWith(t, opts, "tasks", "list", "--json").stdout)
	if len(rows) != 1 || !rows[0].Declared || rows[0].Cron != "0 3 * * *" || rows[0].Zone != "Europe/Paris" ||
		rows[0].Paused || rows[0].LastOccurrence != nil || rows[0].NextRun == nil {
		t.Fatalf("list --json of a declared task = %+v", rows)
	}
	if next := *rows[0].NextRun; !next.Equal(pipeline.NextTaskRun(task, before)) && !next.Equal(pipeline.NextTaskRun(task, time.Now())) {
		t.Fatalf("next run %s is not the task's next occurrence", next)
	}
	if r := b.pipe(t, "tasks", "list"); r.stdout != "no tasks\n" {
		t.Fatalf("list without the declaration printed %q", r.stdout)
	}
	wantError(t, b.pipe(t, "tasks", "pause", task.Name()), 1, "X_JOB_UNKNOWN")

	// `pipe worker` runs the scheduler, which arms the task as it leads.
	w := b.start(t, opts, "worker")
	waitFor(t, "the task armed", func() bool { return b.armed(t, task.Name()) })
	stopped := w.wait()
	wantOK(t, stopped)
	for _, event := range []string{"tasks.scheduler.started", "tasks.scheduler.stopped"} {
		if !strings.Contains(stopped.stderr, event) {
			t.Fatalf("the worker's log lacks %s:\n%s", event, stopped.stderr)
		}
	}

	pause := b.pipe(t, "tasks", "pause", task.Name())
	wantOK(t, pause)
	if pause.stdout != "paused task test.nightly\n" {
		t.Fatalf("pause printed %q", pause.stdout)
	}
	fired := time.Date(2025, 1, 2, 2, 0, 0, 0, time.UTC)
	if _, err := b.pool.Exec(t.Context(), `update pipe.task_state set last_fired = $2, fired_at = $2 where task = $1`,
		task.Name(), fired); err != nil {
		t.Fatal(err)
	}
	list := b.pipe(t, "tasks", "list")
	wantOK(t, list)
	for _, row := range [][]string{{"TASK", "CRON", "ZONE", "PAUSED", "LAST", "OCCURRENCE", "FIRED", "AT", "NEXT", "RUN"},
		{"test.nightly", "-", "-", "yes", "2025-01-02T02:00:00Z", "2025-01-02T02:00:00Z", "-"}} {
		if !hasRow(list.stdout, row...) {
			t.Fatalf("list lacks the row %q:\n%s", row, list.stdout)
		}
	}
	rows = decode[[]taskRow](t, b.pipeWith(t, opts, "tasks", "list", "--json").stdout)
	if len(rows) != 1 || !rows[0].Paused || rows[0].NextRun != nil || rows[0].LastOccurrence == nil || !rows[0].LastOccurrence.Equal(fired) {
		t.Fatalf("list --json of a paused task that fired = %+v", rows)
	}

	resume := b.pipe(t, "tasks", "resume", task.Name(), "--json")
	wantOK(t, resume)
	type action struct {
		Task   string `json:"task"`
		Action string `json:"action"`
	}
	if a := decode[action](t, resume.stdout); a != (action{Task: task.Name(), Action: "resumed"}) {
		t.Fatalf("resume --json = %+v", a)
	}
	rows = decode[[]taskRow](t, b.pipeWith(t, opts, "tasks", "list", "--json").stdout)
	if len(rows) != 1 || rows[0].Paused || rows[0].NextRun == nil {
		t.Fatalf("list --json after resume = %+v", rows)
	}
	wantError(t, b.pipe(t, "tasks", "resume"), 2, "X_CONFIG_INVALID")
}

// pipe tasks run queues a declared task's jobs now, its input built from an
// occurrence at the present second, and leaves its schedule alone (no
// watermark written); a second run within the second is deduped; a task
// this pipe does not declare is X_JOB_UNKNOWN.
func TestTasksRunQueuesNow(t *testing.T) {
	t.Parallel()
	b := setup(t)
	job := tickJob()
	task := nightly(job)
	opts := pipecli.Options{Jobs: []pipeline.Registrable{job}, Tasks: []*pipeline.Task{task}}
	type ran struct {
		Task   string    `json:"task"`
		At     time.Time `json:"at"`
		Queued int       `json:"queued"`
	}
	before := time.Now().UTC().Truncate(time.Second)
	r := b.pipeWith(t, opts, "tasks", "run", task.Name(), "--json")
	wantOK(t, r)
	got := decode[ran](t, r.stdout)
	if got.Task != task.Name() || got.Queued != 1 || got.At.Before(before) || got.At.After(time.Now()) {
		t.Fatalf("tasks run --json = %+v", got)
	}
	var key string
	if err := b.pool.QueryRow(t.Context(), `select input->>'key' from pipe.jobs where name = 'test.tick'`).Scan(&key); err != nil {
		t.Fatal(err)
	}
	if at, err := time.Parse(time.RFC3339, key); err != nil || !at.Equal(got.At) {
		t.Fatalf("the run's input %q is not the occurrence at %s", key, got.At)
	}
	if b.armed(t, task.Name()) {
		t.Fatal("tasks run wrote the task's watermark")
	}
	// The same second again: the live run holds the occurrence's key.
	if again := decode[ran](t, b.pipeWith(t, opts, "tasks", "run", task.Name(), "--json").stdout); again.At.Equal(got.At) && again.Queued != 0 {
		t.Fatalf("a second run of the same occurrence queued %d", again.Queued)
	}
	text := b.pipeWith(t, opts, "tasks", "run", task.Name())
	if !strings.HasPrefix(text.stdout, "queued ") || !strings.Contains(text.stdout, "run(s) of task test.nightly") {
		t.Fatalf("tasks run printed %q", text.stdout)
	}
	wantError(t, b.pipe(t, "tasks", "run", "test.nightly"), 1, "X_JOB_UNKNOWN")
}
