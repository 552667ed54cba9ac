package pipecli_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
)

func TestJobsListAndShowJSON(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.enqueueDemo(t, "grace")

	list := b.pipe(t, "jobs", "list", "--json", "--name", pipecli.DemoJobName, "--state", "ready")
	wantOK(t, list)
	page := decode[pipeline.Page](t, list.stdout)
	if len(page.Jobs) != 1 || page.Jobs[0].ID != id || page.Jobs[0].State != "ready" {
		t.Fatalf("list --json = %+v, want the one ready run %s", page, id)
	}

	none := b.pipe(t, "jobs", "list", "--json", "--state", "done")
	wantOK(t, none)
	if got := decode[pipeline.Page](t, none.stdout); len(got.Jobs) != 0 {
		t.Fatalf("list --state done answered %d jobs", len(got.Jobs))
	}

	show := b.pipe(t, "jobs", "show", id, "--json")
	wantOK(t, show)
	d := decode[pipeline.RunDetail](t, show.stdout)
	if d.ID != id || d.Name != pipecli.DemoJobName || d.State != "ready" || len(d.Journal) == 0 || d.Journal[0].Kind != "enqueued" {
		t.Fatalf("show --json = %+v", d)
	}
}

func TestJobsListTextPages(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ids := []string{b.enqueueDemo(t, "a"), b.enqueueDemo(t, "b"), b.enqueueDemo(t, "c")}

	first := b.pipe(t, "jobs", "list", "--limit", "2")
	wantOK(t, first)
	lines := strings.Split(strings.TrimSpace(first.stdout), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "ID ") || !strings.HasPrefix(lines[1], ids[2]) || !strings.HasPrefix(lines[2], ids[1]) {
		t.Fatalf("first page:\n%s", first.stdout)
	}
	cursor, ok := strings.CutPrefix(lines[3], "next page: --after ")
	if !ok {
		t.Fatalf("no next cursor:\n%s", first.stdout)
	}

	second := b.pipe(t, "jobs", "list", "--limit", "2", "--after", cursor)
	wantOK(t, second)
	if !strings.Contains(second.stdout, ids[0]) || strings.Contains(second.stdout, ids[1]) || strings.Contains(second.stdout, "next page") {
		t.Fatalf("second page:\n%s", second.stdout)
	}

	bad := b.pipe(t, "jobs", "list", "--created-from", "yesterday")
	wantError(t, bad, 2, "X_CONFIG_INVALID")
	badState := b.pipe(t, "jobs", "list", "--state", "sleeping")
	wantError(t, badState, 1, "X_JOB_PAGE_INVALID")
}

func TestJobsShowText(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.enqueueDemo(t, "grace")
	r := b.pipe(t, "jobs", "show", id)
	wantOK(t, r)
	for _, row := range [][]string{{"id", id}, {"state", "ready"}, {"attempt", "0", "of", "3"}, {"steps"}, {"journal"},
		{"SEQ", "AT", "KIND", "ATTEMPT", "STEP"}} {
		if !hasRow(r.stdout, row...) {
			t.Fatalf("show lacks the row %q:\n%s", row, r.stdout)
		}
	}

	wantError(t, b.pipe(t, "jobs", "show", "not-an-id"), 1, "X_ID_INVALID")
	wantError(t, b.pipe(t, "jobs", "show", "0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a11"), 1, "X_JOB_NOT_FOUND")
}

func TestRetryOfLiveJobIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.enqueueDemo(t, "grace")

	wantError(t, b.pipe(t, "jobs", "retry", id), 1, "X_JOB_NOT_REQUEUEABLE")

	r := b.pipe(t, "jobs", "retry", id, "--json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1", r.code)
	}
	e := decode[errorJSON](t, r.stderr)
	if e.Code != "X_JOB_NOT_REQUEUEABLE" || e.Message == "" || e.Fix == "" {
		t.Fatalf("--json error = %+v", e)
	}
}

func TestCancelThenRetry(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.enqueueDemo(t, "grace")

	cancel := b.pipe(t, "jobs", "cancel", id, "--reason", "wrong batch")
	wantOK(t, cancel)
	if cancel.stdout != "cancelled "+id+"\n" {
		t.Fatalf("cancel printed %q", cancel.stdout)
	}
	if got := b.show(t, id).State; got != "cancelled" {
		t.Fatalf("after cancel the run is %s", got)
	}
	wantError(t, b.pipe(t, "jobs", "cancel", id), 1, "X_JOB_NOT_CANCELLABLE")

	retry := b.pipe(t, "jobs", "retry", id, "--json")
	wantOK(t, retry)
	type action struct {
		ID     string `json:"id"`
		Action string `json:"action"`
	}
	if got := decode[action](t, retry.stdout); got.ID != id || got.Action != "requeued" {
		t.Fatalf("retry --json = %+v", got)
	}
	if d := b.show(t, id); d.State != "ready" || d.Journal[len(d.Journal)-1].Kind != "requeued" {
		t.Fatalf("after retry the run is %s, last event %s", d.State, d.Journal[len(d.Journal)-1].Kind)
	}
}

func TestPromoteAndRemove(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.enqueueDemo(t, "grace")

	wantError(t, b.pipe(t, "jobs", "promote", id), 1, "X_JOB_NOT_PROMOTABLE")
	wantOK(t, b.pipe(t, "jobs", "remove", id))
	wantError(t, b.pipe(t, "jobs", "show", id), 1, "X_JOB_NOT_FOUND")

	later, err := pipecli.DemoJob().Enqueue(t.Context(), b.pool, pipecli.DemoInput{SignupID: "later", User: "grace"},
		pipeline.EnqueueOptions{Delay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.show(t, later.ID).State; got != "delayed" {
		t.Fatalf("a run enqueued an hour ahead is %s", got)
	}
	wantOK(t, b.pipe(t, "jobs", "promote", later.ID))
	if d := b.show(t, later.ID); d.State != "ready" || d.RunAt.After(time.Now().Add(time.Minute)) {
		t.Fatalf("after promote the run is %s, run at %s", d.State, d.RunAt)
	}
}

func TestResolveStepFlagValidation(t *testing.T) {
	t.Parallel()
	// The flags are checked before anything connects: this URL reaches nothing.
	const nowhere = "postgres://nobody@127.0.0.1:1/none?connect_timeout=1"
	const id = "0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a11"
	for name, args := range map[string][]string{
		"neither":          {},
		"both":             {"--ran", "--not-ran", "--output", "1"},
		"ran no output":    {"--ran"},
		"ran bad output":   {"--ran", "--output", "{nope"},
		"not-ran output":   {"--not-ran", "--output", "1"},
		"missing step":     nil,
		"one arg too many": {"--not-ran", "extra"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := []string{"--database-url", nowhere, "jobs", "resolve-step", id, "send-welcome"}
			if args == nil {
				cmd = cmd[:len(cmd)-1]
			}
			r := execute(t.Context(), pipecli.Options{}, append(cmd, args...)...)
			wantError(t, r, 2, "X_CONFIG_INVALID")
		})
	}
}

func TestResolveStepWithoutUnknownStep(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.enqueueDemo(t, "grace")
	wantError(t, b.pipe(t, "jobs", "resolve-step", id, "provision", "--not-ran"), 1, "X_STEP_NOT_FOUND")
}

func TestRetryFromStepRunsItAgain(t *testing.T) {
	t.Parallel()
	b := setup(t)
	demo := b.pipe(t, "demo", "--json")
	wantOK(t, demo)
	id := decode[struct {
		Database string
		Import   json.RawMessage
		Export   json.RawMessage
		Subject  json.RawMessage
		Rollup   json.RawMessage
		Webhook  json.RawMessage
		Onboard  pipeline.RunDetail
	}](t, demo.stdout).Onboard.ID

	wantError(t, b.pipe(t, "jobs", "retry", id, "--from-step", "no-such-step"), 1, "X_STEP_NOT_FOUND")
	retry := b.pipe(t, "jobs", "retry", id, "--from-step", "send-welcome")
	wantOK(t, retry)
	if retry.stdout != "requeued "+id+" from step send-welcome\n" {
		t.Fatalf("retry printed %q", retry.stdout)
	}

	stop, done := b.startWorker(t, pipecli.DemoJob())
	d := b.waitSettled(t, id)
	stop()
	wantOK(t, <-done)
	// The requeued run starts again at attempt 1, where send-welcome fails
	// once more: two more executions. provision replays; record runs again.
	got := executions(d.Steps)
	if d.State != "done" || got["provision"] != 1 || got["send-welcome"] != 4 || got["record"] != 2 {
		t.Fatalf("after the rewind the run is %s with executions %v", d.State, got)
	}
}
