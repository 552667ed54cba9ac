package pipecli_test

import (
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
)

func TestQueuesListPauseResume(t *testing.T) {
	t.Parallel()
	b := setup(t)

	empty := b.pipe(t, "queues", "list")
	wantOK(t, empty)
	if empty.stdout != "no queues\n" {
		t.Fatalf("list of no queues printed %q", empty.stdout)
	}
	if got := b.pipe(t, "queues", "list", "--json"); got.stdout != "[]\n" {
		t.Fatalf("list --json of no queues printed %q", got.stdout)
	}

	b.enqueueDemo(t, "a")
	b.enqueueDemo(t, "b")
	pause := b.pipe(t, "queues", "pause", "mail")
	wantOK(t, pause)
	if pause.stdout != "paused queue mail\n" {
		t.Fatalf("pause printed %q", pause.stdout)
	}

	list := b.pipe(t, "queues", "list")
	wantOK(t, list)
	for _, row := range [][]string{{"QUEUE", "PAUSED", "READY", "DELAYED", "RUNNING", "SUSPENDED", "FAILED", "DEAD"},
		{"default", "no", "2", "0", "0", "0", "0", "0"}, {"mail", "yes", "0", "0", "0", "0", "0", "0"}} {
		if !hasRow(list.stdout, row...) {
			t.Fatalf("list lacks the row %q:\n%s", row, list.stdout)
		}
	}
	got := decode[[]pipeline.QueueStats](t, b.pipe(t, "queues", "list", "--json").stdout)
	want := []pipeline.QueueStats{{Queue: "default", Ready: 2, Due: 2}, {Queue: "mail", Paused: true}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("list --json = %+v, want %+v", got, want)
	}

	resume := b.pipe(t, "queues", "resume", "mail", "--json")
	wantOK(t, resume)
	type action struct {
		Queue  string `json:"queue"`
		Action string `json:"action"`
	}
	if a := decode[action](t, resume.stdout); a != (action{Queue: "mail", Action: "resumed"}) {
		t.Fatalf("resume --json = %+v", a)
	}
	if got := decode[[]pipeline.QueueStats](t, b.pipe(t, "queues", "list", "--json").stdout); len(got) != 1 || got[0].Queue != "default" {
		t.Fatalf("after resume, a queue with no jobs is still listed: %+v", got)
	}

	wantError(t, b.pipe(t, "queues", "pause"), 2, "X_CONFIG_INVALID")
	wantError(t, b.pipe(t, "queues", "resume", "a", "b"), 2, "X_CONFIG_INVALID")
	wantError(t, b.pipe(t, "queues", "drain"), 2, "X_CONFIG_INVALID")
}

func TestQueuesBulk(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var ids []string
	for _, user := range []string{"a", "b", "c"} {
		res, err := pipecli.DemoJob().Enqueue(t.Context(), b.pool, pipecli.DemoInput{SignupID: user, User: user},
			pipeline.EnqueueOptions{Delay: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}

	promote := b.pipe(t, "queues", "promote", "--state", "delayed", "--queue", "default", "--json")
	wantOK(t, promote)
	if got := decode[pipeline.BulkResult](t, promote.stdout); got != (pipeline.BulkResult{Affected: 3}) {
		t.Fatalf("promote --json = %+v", got)
	}
	for _, id := range ids {
		if s := b.show(t, id).State; s != "ready" {
			t.Fatalf("after promote run %s is %s", id, s)
		}
	}

	wantOK(t, b.pipe(t, "jobs", "cancel", ids[0]))
	requeue := b.pipe(t, "queues", "requeue", "--state", "cancelled", "--name", pipecli.DemoJobName)
	wantOK(t, requeue)
	if requeue.stdout != "requeued 1 cancelled run(s); 0 more match\n" {
		t.Fatalf("requeue printed %q", requeue.stdout)
	}

	none := b.pipe(t, "queues", "remove", "--state", "ready", "--tenant", "nobody", "--json")
	wantOK(t, none)
	if got := decode[pipeline.BulkResult](t, none.stdout); got != (pipeline.BulkResult{}) {
		t.Fatalf("remove of another tenant = %+v", got)
	}
	remove := b.pipe(t, "queues", "remove", "--state", "ready")
	wantOK(t, remove)
	if remove.stdout != "removed 3 ready run(s); 0 more match\n" {
		t.Fatalf("remove printed %q", remove.stdout)
	}
	wantError(t, b.pipe(t, "jobs", "show", ids[1]), 1, "X_JOB_NOT_FOUND")

	wantError(t, b.pipe(t, "queues", "remove", "--state", "running"), 1, "X_JOB_NOT_REMOVABLE")
	wantError(t, b.pipe(t, "queues", "requeue", "--state", "ready"), 1, "X_JOB_NOT_REQUEUEABLE")
	wantError(t, b.pipe(t, "queues", "promote", "--state", "dead"), 1, "X_JOB_NOT_PROMOTABLE")
	wantError(t, b.pipe(t, "queues", "remove", "--state", "sleeping"), 1, "X_JOB_PAGE_INVALID")
	wantError(t, b.pipe(t, "queues", "remove"), 2, "X_CONFIG_INVALID")
	wantError(t, b.pipe(t, "queues", "promote", "default", "--state", "delayed"), 2, "X_CONFIG_INVALID")
}
