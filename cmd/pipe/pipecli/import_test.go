package pipecli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

func (b *bundle) exec(t *testing.T, sql string) {
	t.Helper()
	if _, err := b.pool.Exec(t.Context(), sql); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestImportWaitsAndReports(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create schema app; create table app.people(id int primary key, name text not null)`)
	path := writeFile(t, "people.csv", "name,id\nada,1\ngrace,2\nbad,x\n")
	r := b.pipe(t, "import", path, "--into", "app.people", "--key", "id", "--wait", "--json")
	if r.code != 3 { // completed, with a refused row
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var res importrows.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if res.Rows != 2 || res.Refused != 1 || res.Pages != 1 {
		t.Fatalf("result %+v", res)
	}
	report, err := filepath.Glob(filepath.Join(filepath.Dir(path), "people.csv.errors", "*", "errors-00000.ndjson"))
	if err != nil || len(report) != 1 {
		t.Fatalf("report parts %v %v: want one beside the source", report, err)
	}
	var n int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from app.people`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d rows, %v", n, err)
	}
}

func TestImportFailureExitsWithTheCode(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key, name text not null)`)
	path := writeFile(t, "p.csv", "id,colour\n1,red\n")
	r := b.pipe(t, "import", path, "--into", "people", "--wait")
	wantError(t, r, 1, "X_IMPORT_HEADER_MISMATCH")
	if !strings.Contains(r.stderr, `unknown "colour" (column 2)`) || !strings.Contains(r.stderr, "missing name") {
		t.Fatalf("stderr:\n%s", r.stderr)
	}
}

func TestImportWithoutWaitEnqueues(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key)`)
	path := writeFile(t, "p.csv", "id\n1\n")
	r := b.pipe(t, "import", path, "--into", "people", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var q struct{ ID string }
	if err := json.Unmarshal([]byte(r.stdout), &q); err != nil || q.ID == "" {
		t.Fatalf("%v %q", err, r.stdout)
	}
	d := b.show(t, q.ID)
	if d.Name != importrows.TableJobName || d.State != "ready" {
		t.Fatalf("run %s is %s", d.Name, d.State)
	}
}

func TestImportRefusesBadFlagsAndHostileSources(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "import", "x.csv")
	wantError(t, r, 2, "X_CONFIG_INVALID") // no --into
	r = b.pipe(t, "import", "x.csv", "--into", "t", "--page-bytes", "10")
	wantError(t, r, 2, "X_CONFIG_INVALID")
	r = b.pipe(t, "import", "s3://bucket/../etc/passwd", "--into", "t")
	wantError(t, r, 1, "X_BLOB_KEY_INVALID")
}
