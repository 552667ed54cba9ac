package pipecli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

// TestJobsShowNeverCutsAValue imports into a directory deep enough that the
// error report's location is longer than any column of the readable view:
// `pipe jobs show --json` and the readable view both print it whole.
func TestJobsShowNeverCutsAValue(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key, name text not null)`)
	dir := filepath.Join(t.TempDir(), strings.Repeat("a-directory-with-a-long-name/", 6))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "people.csv")
	if err := os.WriteFile(path, []byte("id,name\n1,ada\nx,bad\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := b.pipe(t, "import", path, "--into", "people", "--wait"); r.code != 3 { // completed, one row refused
		t.Fatalf("the import exited %d: %s", r.code, r.stderr)
	}
	var id string
	if err := b.pool.QueryRow(t.Context(), `select id::text from pipe.jobs`).Scan(&id); err != nil {
		t.Fatal(err)
	}

	r := b.pipe(t, "jobs", "show", id, "--json")
	wantOK(t, r)
	shown := decodeLoose[struct {
		Result importrows.Result `json:"result"`
	}](t, r.stdout)
	bucket, prefix := shown.Result.ErrorBucket, shown.Result.ErrorPrefix
	if shown.Result.Refused != 1 || !strings.Contains(bucket, dir) || prefix != "people.csv.errors/"+id+"/" {
		t.Fatalf("--json shows the error report at %q %q (refused %d); want it whole: in %s, under the run's id", bucket, prefix, shown.Result.Refused, dir)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &raw); err != nil || strings.Contains(r.stdout, "…") {
		t.Fatalf("--json is cut short (%v):\n%s", err, r.stdout)
	}

	text := b.pipe(t, "jobs", "show", id)
	wantOK(t, text)
	if !strings.Contains(text.stdout, bucket) || !strings.Contains(text.stdout, prefix) {
		t.Fatalf("the readable view cuts the error report's location %s %s:\n%s", bucket, prefix, text.stdout)
	}
}
