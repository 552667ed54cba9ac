package pipecli_test

import (
	"path/filepath"
	"testing"
)

// jobCount answers how many runs pipe.jobs holds.
func (b *bundle) jobCount(t *testing.T) int {
	t.Helper()
	var n int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pipe.jobs`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Each mistake a user makes on the command line is refused with its code
// before anything is enqueued, with --wait and without: nothing is left in
// pipe.jobs, not even a dead run.
func TestMistakesAreRefusedBeforeAnythingIsEnqueued(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key, name text not null)`)
	good := writeFile(t, "people.csv", "id,name\n1,ada\n")
	header := writeFile(t, "header.csv", "id,Name\n1,ada\n")
	out := t.TempDir()
	for name, c := range map[string]struct {
		code string
		args []string
	}{
		"import into a mistyped table":   {"X_IMPORT_TABLE_INVALID", []string{"import", good, "--into", "peple"}},
		"import a missing file":          {"X_BLOB_NOT_FOUND", []string{"import", filepath.Join(filepath.Dir(good), "nope.csv"), "--into", "people"}},
		"import a header mismatch":       {"X_IMPORT_HEADER_MISMATCH", []string{"import", header, "--into", "people"}},
		"import on a key with no index":  {"X_IMPORT_TABLE_INVALID", []string{"import", good, "--into", "people", "--key", "name"}},
		"import with declared columns":   {"X_IMPORT_HEADER_MISMATCH", []string{"import", good, "--into", "people", "--columns", "id,nom"}},
		"export a mistyped table":        {"X_EXPORT_SOURCE_INVALID", []string{"export", "peple", "--to", out}},
		"export a mistyped column":       {"X_EXPORT_SOURCE_INVALID", []string{"export", "people", "--columns", "id,nme", "--to", out}},
		"export a --where typo":          {"X_EXPORT_SOURCE_INVALID", []string{"export", "people", "--where", "nme = 'ada'", "--to", out}},
		"export a --where that does not": {"X_EXPORT_SOURCE_INVALID", []string{"export", "people", "--where", "id = 'one'", "--to", out}},
		"export on an unknown key":       {"X_EXPORT_KEY_INVALID", []string{"export", "people", "--key", "nme", "--to", out}},
	} {
		for _, wait := range []bool{false, true} {
			args := c.args
			if wait {
				args = append(args[:len(args):len(args)], "--wait")
			}
			r := b.pipe(t, args...)
			if r.code != 1 {
				t.Fatalf("%s (wait %v): exit %d\n%s%s", name, wait, r.code, r.stdout, r.stderr)
			}
			wantError(t, r, 1, c.code)
			if n := b.jobCount(t); n != 0 {
				t.Fatalf("%s (wait %v): %d runs left behind\n%s", name, wait, n, r.stderr)
			}
		}
	}
	// What the checks let through is enqueued as before.
	wantOK(t, b.pipe(t, "import", good, "--into", "people"))
	wantOK(t, b.pipe(t, "export", "people", "--where", "name = 'ada'", "--to", out))
	if n := b.jobCount(t); n != 2 {
		t.Fatalf("%d runs, want the 2 enqueued", n)
	}
}
