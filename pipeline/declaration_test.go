package pipeline_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

func noop(context.Context, *pipeline.Run[noInput]) (struct{}, error) { return struct{}{}, nil }

func TestDeclarationFaultsAreNamedTogether(t *testing.T) {
	_, err := pipeline.NewJob[noInput, struct{}]("", nil, nil, pipeline.JobOptions[noInput, struct{}]{
		Timeout: -time.Second, StepTimeout: -1, Retry: &pipeline.Retry{Attempts: 0, Backoff: "sometimes"},
	})
	if !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("err = %v", err)
	}
	for _, fault := range []string{"name is empty", "key function is nil", "body is nil", "Timeout is negative",
		"StepTimeout is negative", "Attempts must be 1 or more", "Backoff must be"} {
		if !strings.Contains(err.Error(), fault) {
			t.Errorf("the error does not name %q: %v", fault, err)
		}
	}
}

func TestDeclarationDefaults(t *testing.T) {
	j, err := pipeline.NewJob("defaults", keyK, noop)
	if err != nil {
		t.Fatal(err)
	}
	if j.Queue() != "default" || j.Retry() != pipeline.DefaultRetry() {
		t.Fatalf("queue %q retry %+v", j.Queue(), j.Retry())
	}
	m := j.Describe()
	if m.Name != "defaults" || m.Retry.Attempts != 3 || !m.Retry.Jitter || !m.Retry.DeadLetter || m.Retry.Backoff != pipeline.Exponential {
		t.Fatalf("manifest %+v", m)
	}
	if !strings.Contains(string(m.Input), `"k"`) {
		t.Fatalf("input schema lacks the field: %s", m.Input)
	}
	if !m.Idempotent || m.Steps == nil || len(m.Steps) != 0 || m.EventPollMs != pipeline.DefaultEventPoll.Milliseconds() {
		t.Fatalf("manifest idempotent %v steps %v event poll %d", m.Idempotent, m.Steps, m.EventPollMs)
	}
}

func TestRegistryManifestsIsEveryJobsOwnRowByName(t *testing.T) {
	b := pipeline.MustJob("b-job", keyK, noop, pipeline.JobOptions[noInput, struct{}]{EventPoll: 2 * time.Second, Queue: "slow"})
	a := pipeline.MustJob("a-job", keyK, noop)
	reg, err := pipeline.NewRegistry(b, a)
	if err != nil {
		t.Fatal(err)
	}
	rows := reg.Manifests()
	if len(rows) != 2 || rows[0].Name != "a-job" || rows[1].Name != "b-job" {
		t.Fatalf("manifests %+v", rows)
	}
	if rows[1].Queue != "slow" || rows[1].EventPollMs != 2000 {
		t.Fatalf("b-job's row %+v is not its own Describe", rows[1])
	}
}

func TestRegistryRefusesDuplicateNames(t *testing.T) {
	a := pipeline.MustJob("same", keyK, noop)
	b := pipeline.MustJob("same", keyK, noop)
	if _, err := pipeline.NewRegistry(a, b); !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("err = %v", err)
	}
}

func TestEmptyKeyIsInvariant(t *testing.T) {
	j := pipeline.MustJob("empty-key", keyK, noop)
	if _, err := j.KeyFor(noInput{}); !errors.Is(err, errcode.Invariant) {
		t.Fatalf("err = %v", err)
	}
}

func TestBackoffSchedules(t *testing.T) {
	r := pipeline.Retry{Attempts: 5, Backoff: pipeline.Exponential, Delay: time.Second, MaxDelay: 5 * time.Second, NoJitter: true}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second}
	for i, w := range want {
		if got := r.DelayFor(i+1, 0); got != w {
			t.Errorf("exponential attempt %d = %v; want %v", i+1, got, w)
		}
	}
	r.Backoff = pipeline.Linear
	if got := r.DelayFor(3, 0); got != 3*time.Second {
		t.Errorf("linear 3 = %v", got)
	}
	r.Backoff = pipeline.Fixed
	if got := r.DelayFor(4, 0); got != time.Second {
		t.Errorf("fixed 4 = %v", got)
	}
	r.Backoff, r.NoJitter = pipeline.Exponential, false
	if lo, hi := r.DelayFor(2, 0), r.DelayFor(2, 0.999); lo != time.Second || hi < 1990*time.Millisecond || hi > 2*time.Second {
		t.Errorf("equal jitter bounds = %v..%v; want 1s..2s", lo, hi)
	}
}

// FuzzDeclaration: any declaration either builds a job whose resolved
// settings are valid, or is refused with X_JOB_DECLARATION_INVALID — never a
// panic, never another error.
func FuzzDeclaration(f *testing.F) {
	f.Add("job", "q", 3, "exponential", int64(1000), int64(0), int64(0), int64(0))
	f.Add("", "", 0, "", int64(-1), int64(-1), int64(-1), int64(-1))
	f.Fuzz(func(t *testing.T, name, queue string, attempts int, backoff string, delay, maxDelay, timeout, stepTimeout int64) {
		j, err := pipeline.NewJob(name, keyK, noop, pipeline.JobOptions[noInput, struct{}]{
			Queue: queue, Timeout: time.Duration(timeout), StepTimeout: time.Duration(stepTimeout),
			Retry: &pipeline.Retry{Attempts: attempts, Backoff: pipeline.Backoff(backoff), Delay: time.Duration(delay), MaxDelay: time.Duration(maxDelay)},
		})
		if err != nil {
			if !errors.Is(err, errcode.JobDeclarationInvalid) {
				t.Fatalf("uncoded refusal %v", err)
			}
			return
		}
		r := j.Retry()
		if r.Attempts < 1 || r.Delay <= 0 || r.MaxDelay <= 0 || j.Queue() == "" || j.Name() == "" || timeout < 0 || stepTimeout < 0 {
			t.Fatalf("accepted an invalid declaration: %+v", r)
		}
		if d := r.DelayFor(attempts, 0.5); d < 0 || d > r.MaxDelay {
			t.Fatalf("delay %v outside [0, %v]", d, r.MaxDelay)
		}
	})
}

// A fleet-wide cap always waits: Fail is for a keyed cap only, and the
// manifest shows it there.
func TestAnUnkeyedCapThatFailsIsRefused(t *testing.T) {
	_, err := pipeline.NewJob("capped", keyK, noop, pipeline.JobOptions[noInput, struct{}]{
		Concurrency: &pipeline.Concurrency[noInput]{Limit: 2, WhenBusy: pipeline.Fail}})
	if !errors.Is(err, errcode.JobDeclarationInvalid) || !strings.Contains(err.Error(), "needs a Key") {
		t.Fatalf("err = %v", err)
	}
	keyed := pipeline.MustJob("capped", keyK, noop, pipeline.JobOptions[noInput, struct{}]{
		Concurrency: &pipeline.Concurrency[noInput]{Limit: 1, Key: keyK, WhenBusy: pipeline.Fail}})
	if m := keyed.Describe(); m.Concurrency == nil || m.Concurrency.WhenBusy != "fail" || !m.Concurrency.Keyed {
		t.Fatalf("manifest %+v", m.Concurrency)
	}
}

// Job.Parse checks a raw payload against the declared input strictly: the
// input comes back; an unknown field, a wrong type, trailing data or no
// JSON is X_JOB_INPUT_INVALID, and the message quotes none of it.
func TestParseChecksARawPayload(t *testing.T) {
	j := pipeline.MustJob("parse", func(in payload) string { return in.K }, func(context.Context, *pipeline.Run[payload]) (struct{}, error) { return struct{}{}, nil })
	in, err := j.Parse([]byte(`{"k":"a","note":"n"}`))
	if err != nil || in != (payload{K: "a", Note: "n"}) {
		t.Fatalf("Parse = %+v, %v", in, err)
	}
	for _, raw := range []string{`{"k":"a","secret-field":"ada@example.com"}`, `{"k":7}`, `{"k":"a"} {"k":"b"}`, `ada@example.com`, ``} {
		_, err := j.Parse([]byte(raw))
		if !errors.Is(err, errcode.JobInputInvalid) || strings.Contains(err.Error(), "ada") || strings.Contains(err.Error(), "secret") {
			t.Fatalf("Parse(%q) = %v; want X_JOB_INPUT_INVALID quoting nothing", raw, err)
		}
	}
}
