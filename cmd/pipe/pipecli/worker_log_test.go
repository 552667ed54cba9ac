package pipecli_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// settledLine is the worker's one line per settled run, as --json logs it.
type settledLine struct {
	Msg      string `json:"msg"`
	Level    string `json:"level"`
	Job      string `json:"job"`
	ID       string `json:"id"`
	State    string `json:"state"`
	Duration string `json:"duration"`
}

func TestWorkerLogsOneLinePerSettledRun(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const secret = "ada@example.com"
	body := func(_ context.Context, run *pipeline.Run[blockInput]) (struct{}, error) {
		if strings.HasPrefix(run.Input.Key, "bad") {
			return struct{}{}, errcode.New(errcode.JobInputInvalid, "the input is refused").WithFix("send another")
		}
		return struct{}{}, nil
	}
	job := pipeline.MustJob("test.settle", func(in blockInput) string { return in.Key }, body)
	good, err := job.Enqueue(t.Context(), b.pool, blockInput{Key: secret})
	if err != nil {
		t.Fatal(err)
	}
	bad, err := job.Enqueue(t.Context(), b.pool, blockInput{Key: "bad " + secret})
	if err != nil {
		t.Fatal(err)
	}

	stop, done := b.startWorker(t, job, "--json")
	b.waitSettled(t, good.ID)
	b.waitSettled(t, bad.ID)
	stop()
	r := <-done
	wantOK(t, r)

	if strings.Contains(r.stderr, secret) {
		t.Fatalf("the worker's log quotes the input:\n%s", r.stderr)
	}
	got := map[string]settledLine{}
	for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		var l settledLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("a --json log line is not JSON: %q", line)
		}
		if l.Msg != "jobs.run.settled" {
			continue
		}
		if _, twice := got[l.ID]; twice {
			t.Fatalf("run %s settled twice in the log", l.ID)
		}
		got[l.ID] = l
	}
	want := map[string]string{good.ID: "completed", bad.ID: "dead"}
	if len(got) != len(want) {
		t.Fatalf("settled lines %+v, want one for each of %v", got, want)
	}
	for id, state := range want {
		l := got[id]
		if l.Level != "INFO" || l.Job != "test.settle" || l.State != state {
			t.Fatalf("run %s: %+v, want INFO test.settle %s", id, l, state)
		}
		if d, err := time.ParseDuration(l.Duration); err != nil || d < 0 {
			t.Fatalf("run %s: duration %q is not a duration", id, l.Duration)
		}
	}
}
