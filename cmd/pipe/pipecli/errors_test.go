package pipecli_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
)

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for name, args := range map[string][]string{
		"unknown command":    {"frobnicate"},
		"unknown subcommand": {"jobs", "frobnicate"},
		"unknown flag":       {"jobs", "list", "--colour"},
		"missing argument":   {"jobs", "show"},
		"extra argument":     {"migrate", "now"},
		"bad flag value":     {"jobs", "list", "--limit", "many"},
		"exclusive cursors":  {"jobs", "list", "--after", "c1.x", "--before", "c1.y"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			wantError(t, execute(t.Context(), pipecli.Options{}, args...), 2, "X_CONFIG_INVALID")

			r := execute(t.Context(), pipecli.Options{}, append(args, "--json")...)
			if r.code != 2 {
				t.Fatalf("with --json: exit %d, want 2", r.code)
			}
			if e := decode[errorJSON](t, r.stderr); e.Code != "X_CONFIG_INVALID" || e.Fix == "" {
				t.Fatalf("with --json: %+v", e)
			}
		})
	}
}

func TestHelpExitsZero(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"--help"}, {"jobs"}, {"jobs", "list", "--help"}} {
		r := execute(t.Context(), pipecli.Options{}, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Usage:") {
			t.Fatalf("pipe %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestUnreachableDatabase(t *testing.T) {
	t.Parallel()
	r := execute(t.Context(), pipecli.Options{}, "--database-url", "postgres://ops:hunter2@127.0.0.1:1/queue?connect_timeout=1", "jobs", "list")
	wantError(t, r, 1, "X_POSTGRES_UNAVAILABLE")
	if strings.Contains(r.stderr, "hunter2") {
		t.Fatalf("the error shows the password:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "127.0.0.1:1") || !strings.Contains(r.stderr, "--database-url") {
		t.Fatalf("the error does not say which database it tried:\n%s", r.stderr)
	}

	bad := execute(t.Context(), pipecli.Options{}, "--database-url", "postgres://ops:hunter2@127.0.0.1:notaport/queue", "jobs", "list")
	wantError(t, bad, 1, "X_CONFIG_INVALID")
	if strings.Contains(bad.stderr, "hunter2") {
		t.Fatalf("the error shows the password:\n%s", bad.stderr)
	}
}

// TestErrorsNeverQuoteInput drives the jobs commands' refusals at a run whose
// input holds a secret, then runs it through a failed attempt, and checks
// that no error — printed, logged or stored — shows the input.
func TestErrorsNeverQuoteInput(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const secret = "s3cr3t-ssn-078-05-1120"
	id := b.enqueueDemo(t, secret)

	for _, args := range [][]string{
		{"jobs", "retry", id},
		{"jobs", "retry", id, "--json"},
		{"jobs", "retry", id, "--from-step", "provision"},
		{"jobs", "promote", id},
		{"jobs", "resolve-step", id, "provision", "--not-ran"},
	} {
		r := b.pipe(t, args...)
		if r.code == 0 {
			t.Fatalf("pipe %v succeeded", args)
		}
		if strings.Contains(r.stderr, secret) {
			t.Fatalf("pipe %v quotes the input:\n%s", args, r.stderr)
		}
	}

	// The demo job fails its first attempt: run it with the secret input.
	stop, done := b.startWorker(t, pipecli.DemoJob())
	d := b.waitSettled(t, id)
	stop()
	r := <-done
	wantOK(t, r)
	if d.State != "done" || d.LastError == nil {
		t.Fatalf("the run is %s with last error %+v, want done after a failed attempt", d.State, d.LastError)
	}
	if strings.Contains(r.stderr, secret) {
		t.Fatalf("the worker's log quotes the input:\n%s", r.stderr)
	}
	show := b.pipe(t, "jobs", "show", id, "--json")
	wantOK(t, show)
	shown := decode[pipeline.RunDetail](t, show.stdout)
	errs := []*pipeline.ErrorRecord{shown.LastError}
	for _, s := range shown.Steps {
		errs = append(errs, s.LastError)
	}
	for _, e := range errs {
		if e != nil && strings.Contains(e.Message+e.Fix, secret) {
			t.Fatalf("a stored error quotes the input: %+v", e)
		}
	}
}

func TestNilArgsIsBarePipe(t *testing.T) {
	t.Parallel()
	var out, errOut strings.Builder
	code := pipecli.Execute(t.Context(), nil, pipecli.Options{Stdout: &out, Stderr: &errOut})
	if code != 0 || !strings.Contains(out.String(), "Usage:") {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
}
