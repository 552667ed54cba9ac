package pipecli_test

import (
	"strings"
	"testing"
)

// A --wait run that passes the checks and fails in its body prints the
// code, the body's message and fix, and the run's id for `pipe jobs show`
// — not how the worker settled it ("ended dead", "classified terminal").
// --json prints the same fields.
func TestWaitFailurePrintsTheCodeTheFixAndTheRun(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key, name text not null check (name <> 'bob'))`)
	path := writeFile(t, "people.csv", "id,name\n1,bob\n")

	r := b.pipe(t, "import", path, "--into", "people", "--wait")
	wantError(t, r, 1, "X_IMPORT_WRITE_REFUSED")
	for _, bad := range []string{"ended dead", "classified terminal", "not retried"} {
		if strings.Contains(r.stderr, bad) {
			t.Fatalf("stderr says %q:\n%s", bad, r.stderr)
		}
	}
	if !strings.HasPrefix(r.stderr, "error X_IMPORT_WRITE_REFUSED: import: ") {
		t.Fatalf("stderr does not give the body's message:\n%s", r.stderr)
	}
	var id string
	if err := b.pool.QueryRow(t.Context(), `select id::text from pipe.jobs where state = 'dead'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.stderr, "\nrun: "+id+" (`pipe jobs show "+id+"`)\n") {
		t.Fatalf("stderr does not name run %s:\n%s", id, r.stderr)
	}

	j := b.pipe(t, "import", path, "--into", "people", "--wait", "--json", "--page-bytes", "70000")
	if j.code != 1 || j.stdout != "" {
		t.Fatalf("--json: exit %d, stdout %q", j.code, j.stdout)
	}
	e := decode[errorJSON](t, j.stderr)
	if e.Code != "X_IMPORT_WRITE_REFUSED" || e.Run == "" || e.Run == id || e.Fix == "" ||
		strings.Contains(e.Message, "classified terminal") || !strings.HasPrefix(e.Message, "import: ") {
		t.Fatalf("--json: %+v", e)
	}
}
