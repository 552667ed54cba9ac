package pipecli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// result is one Execute: what it printed and its exit code.
type result struct {
	stdout, stderr string
	code           int
}

// execute runs the command line with opts' streams replaced by buffers,
// without the stock hourly maintenance (see quietOptions).
func execute(ctx context.Context, opts pipecli.Options, args ...string) result {
	return loud(ctx, quietOptions(opts), args...)
}

// loud runs the command line with opts as given: the stock hourly
// maintenance on unless opts turns it off (execute turns it off).
func loud(ctx context.Context, opts pipecli.Options, args ...string) result {
	var out, errOut bytes.Buffer
	opts.Stdout, opts.Stderr = &out, &errOut
	code := pipecli.Execute(ctx, args, opts)
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
}

// bundle is one test's database: its URL, for the command line, and a pool,
// for arranging and checking.
type bundle struct {
	url  string
	pool *pgxpool.Pool
}

func setup(t *testing.T) *bundle {
	t.Helper()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return &bundle{url: url, pool: pool}
}

// pipe runs a command line against the bundle's database.
func (b *bundle) pipe(t *testing.T, args ...string) result {
	t.Helper()
	return b.pipeWith(t, pipecli.Options{}, args...)
}

func (b *bundle) pipeWith(t *testing.T, opts pipecli.Options, args ...string) result {
	t.Helper()
	return execute(t.Context(), opts, append([]string{"--database-url", b.url}, args...)...)
}

// enqueueDemo enqueues one demo run with user as its input's user and
// answers its id.
func (b *bundle) enqueueDemo(t *testing.T, user string) string {
	t.Helper()
	res, err := pipecli.DemoJob().Enqueue(t.Context(), b.pool, pipecli.DemoInput{SignupID: uuid.NewString(), User: user})
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

func (b *bundle) show(t *testing.T, id string) *pipeline.RunDetail {
	t.Helper()
	d, err := pipeline.NewAdmin(b.pool).Show(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// waitSettled polls the run until it leaves the live states, for at most
// 20 seconds.
func (b *bundle) waitSettled(t *testing.T, id string) *pipeline.RunDetail {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		d := b.show(t, id)
		if !d.State.Live() {
			return d
		}
		select {
		case <-ctx.Done():
			t.Fatalf("run %s is still %s", id, d.State)
		case <-tick.C:
		}
	}
}

// wantOK fails the test unless r exited 0.
func wantOK(t *testing.T, r result) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// wantError fails the test unless r exited with exit and printed the coded
// error code, with a fix, on stderr and nothing on stdout.
func wantError(t *testing.T, r result, exit int, code string) {
	t.Helper()
	if r.code != exit {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, exit, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "error "+code+": ") || !strings.Contains(r.stderr, "\nfix: ") {
		t.Fatalf("stderr does not open with error %s and a fix:\n%s", code, r.stderr)
	}
	if r.stdout != "" {
		t.Fatalf("stdout not empty on failure:\n%s", r.stdout)
	}
}

// decode parses s as one JSON document of type T.
func decode[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %T: %v\n%s", v, err, s)
	}
	if dec.More() {
		t.Fatalf("more than one JSON document:\n%s", s)
	}
	return v
}

// decodeLoose is decode for documents with fields the test ignores.
func decodeLoose[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode %T: %v\n%s", v, err, s)
	}
	return v
}

// errorJSON is a failure as --json prints it.
type errorJSON struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
	Run     string `json:"run"`
}

// hasRow reports whether out holds a line whose whitespace-separated fields
// are cells, as a table or header row prints them.
func hasRow(out string, cells ...string) bool {
	want := strings.Join(cells, " ")
	for _, line := range strings.Split(out, "\n") {
		if strings.Join(strings.Fields(line), " ") == want {
			return true
		}
	}
	return false
}

// quietOptions answers opts without the stock hourly maintenance: its task
// fires at the top of every hour, and a test whose worker ran across one
// would find a pipe.maintain run among the runs it counts. The maintenance
// itself is tested with it on (maintenance_test.go).
func quietOptions(opts pipecli.Options) pipecli.Options {
	opts.NoMaintenance = true
	return opts
}
