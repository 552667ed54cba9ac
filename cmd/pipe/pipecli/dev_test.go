package pipecli_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
)

func TestDevMigratesAndRunsJobsAndTasks(t *testing.T) {
	t.Parallel()
	b := setup(t).owner(t) // dev migrates the database itself: the owner's
	b.dropSchema(t)
	job := tickJob()
	task := nightly(job)
	dev := b.start(t, pipecli.Options{Jobs: []pipeline.Registrable{job}, Tasks: []*pipeline.Task{task}}, "dev")

	first := dev.stdout.waitLine(t, "status", func(string) bool { return true })
	if !strings.Contains(first, "in flight 0/100") {
		t.Fatalf("the first status line is %q", first)
	}
	// The demo job is registered beside the app's own.
	id := b.enqueueDemo(t, "grace")
	if d := b.waitSettled(t, id); d.State != "done" {
		t.Fatalf("dev ran the demo run to %s", d.State)
	}
	waitFor(t, "the task armed", func() bool { return b.armed(t, task.Name()) })

	r := dev.wait()
	wantOK(t, r)
	for _, event := range []string{"jobs.worker.started", "tasks.scheduler.started", "pipe.worker.draining", "jobs.worker.stopped"} {
		if !strings.Contains(r.stderr, event) {
			t.Fatalf("dev's log lacks %s:\n%s", event, r.stderr)
		}
	}
}

func TestDevPrintsStatusLines(t *testing.T) {
	t.Parallel()
	b := setup(t)
	if _, err := pipecli.DemoJob().Enqueue(t.Context(), b.pool, pipecli.DemoInput{SignupID: "later", User: "grace"},
		pipeline.EnqueueOptions{Delay: time.Hour}); err != nil {
		t.Fatal(err)
	}
	for _, asJSON := range []bool{false, true} {
		args := []string{"dev"}
		if asJSON {
			args = append(args, "--json")
		}
		dev := b.start(t, pipecli.Options{}, args...)
		first := dev.stdout.waitLine(t, "status", func(string) bool { return true })
		r := dev.wait()
		wantOK(t, r)

		if !asJSON {
			if !strings.HasSuffix(first, "Z | in flight 0/100 | default: 0 ready, 1 delayed, 0 running, 0 suspended") {
				t.Fatalf("the status line is %q", first)
			}
			continue
		}
		var st struct {
			At       time.Time             `json:"at"`
			InFlight int                   `json:"inFlight"`
			Capacity int                   `json:"capacity"`
			Queues   []pipeline.QueueStats `json:"queues"`
		}
		if err := json.Unmarshal([]byte(first), &st); err != nil {
			t.Fatalf("the --json status line %q: %v", first, err)
		}
		if st.At.IsZero() || st.InFlight != 0 || st.Capacity != 100 || len(st.Queues) != 1 ||
			st.Queues[0] != (pipeline.QueueStats{Queue: "default", Delayed: 1}) {
			t.Fatalf("the --json status line is %+v", st)
		}
	}
}
