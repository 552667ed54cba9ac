package pipecli_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

// An added command runs beside the stock ones on the command line's
// database, streams and --json; without it, the name is unknown.
func TestOptionsCommandsAddACommand(t *testing.T) {
	t.Parallel()
	b := setup(t)
	count := func(env pipecli.Env) *cobra.Command {
		return pipecli.Group("count", "Count things", &cobra.Command{
			Use:  "jobs",
			Args: pipecli.NoArgs,
			RunE: func(c *cobra.Command, _ []string) error {
				pool, err := env.Connect(c.Context())
				if err != nil {
					return err
				}
				defer pool.Close()
				var n int
				if err := pool.QueryRow(c.Context(), `select count(*) from pipe.jobs`).Scan(&n); err != nil {
					return err
				}
				if env.JSON() {
					return env.PrintJSON(map[string]int{"jobs": n})
				}
				_, err = fmt.Fprintln(env.Stdout(), n)
				return err
			},
		})
	}
	opts := pipecli.Options{Commands: []func(pipecli.Env) *cobra.Command{count}}
	b.enqueueDemo(t, "ann")
	j := b.pipeWith(t, opts, "count", "jobs", "--json")
	wantOK(t, j)
	if got := decode[map[string]int](t, j.stdout); got["jobs"] != 1 {
		t.Fatalf("count jobs --json = %v", got)
	}
	if r := b.pipeWith(t, opts, "count", "jobs"); r.code != 0 || r.stdout != "1\n" {
		t.Fatalf("count jobs: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	wantError(t, b.pipeWith(t, opts, "count", "jobs", "extra"), 2, "X_CONFIG_INVALID")
	wantError(t, b.pipeWith(t, opts, "count", "rows"), 2, "X_CONFIG_INVALID")
	wantError(t, b.pipe(t, "count", "jobs"), 2, "X_CONFIG_INVALID")
}

// The benches are the stock binary's: pipecli alone has no `pipe bench`.
func TestNoBenchWithoutTheStockBinary(t *testing.T) {
	t.Parallel()
	wantError(t, execute(t.Context(), pipecli.Options{}, "bench", "jobs"), 2, "X_CONFIG_INVALID")
}

// A command named as a stock one is a programmer's error.
func TestOptionsCommandsRefuseAStockName(t *testing.T) {
	t.Parallel()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `"jobs"`) {
			t.Fatalf("recovered %v; want a panic naming jobs", r)
		}
	}()
	jobs := func(pipecli.Env) *cobra.Command { return &cobra.Command{Use: "jobs"} }
	execute(t.Context(), pipecli.Options{Commands: []func(pipecli.Env) *cobra.Command{jobs}}, "jobs", "list")
}

// An app embedding pipecli does not link the bench room or the factories'
// harnesses.
func TestPipecliDoesNotLinkTheBenches(t *testing.T) {
	t.Parallel()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.CommandContext(t.Context(), goCmd, "list", "-deps", "github.com/pipekit/pipe/cmd/pipe/pipecli").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/pipekit/pipe/cmd/pipe/bench") {
			t.Errorf("pipecli links %s", pkg)
		}
	}
}
