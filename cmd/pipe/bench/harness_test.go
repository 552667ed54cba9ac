package bench_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/fixtures"
)

// TestMain doubles as the benches' helper processes, as the stock pipe's
// main does.
func TestMain(m *testing.M) {
	bench.HelperMain()
	os.Exit(m.Run())
}

// result is one command line: what it printed and its exit code.
type result struct {
	stdout, stderr string
	code           int
}

// bundle is one test's database: its URL, for the command line, and a pool,
// for checking.
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

// pipe runs a command line of the stock pipe (bench added) against the
// bundle's database.
func (b *bundle) pipe(t *testing.T, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	opts := pipecli.Options{Stdout: &out, Stderr: &errOut, Commands: []func(pipecli.Env) *cobra.Command{bench.Command}}
	code := pipecli.Execute(t.Context(), append([]string{"--database-url", b.url}, args...), opts)
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
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

// decodeLoose parses s as one JSON document of type T, ignoring fields T
// lacks.
func decodeLoose[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode %T: %v\n%s", v, err, s)
	}
	return v
}
