package pipecli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pipekit/pipe/exportrows"
)

func TestExportWaitsAndWritesAManifest(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key, name text); insert into people select g, 'p' || g from generate_series(1, 250) g`)
	dir := t.TempDir()
	r := b.pipe(t, "export", "people", "--to", dir, "--format", "ndjson", "--compression", "gzip", "--page-rows", "100", "--wait", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var res exportrows.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if res.Rows != 250 || res.Parts != 3 {
		t.Fatalf("result %+v: want 250 rows in 3 parts", res)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(res.Manifest))); err != nil {
		t.Fatalf("the manifest is not where the result says: %v", err)
	}
}

// exportWaiting runs pipe export --wait --json with args and answers its
// result, failing the test on a non-zero exit.
func exportWaiting(t *testing.T, b *bundle, args ...string) exportrows.Result {
	t.Helper()
	r := b.pipe(t, append(append([]string{"export"}, args...), "--wait", "--json")...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var res exportrows.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// --order snapshot exports a table without a key, in storage order, and
// round-trips through pipe import.
func TestExportInSnapshotOrderRoundTrips(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table heap(n int, label text); insert into heap select g, 'n' || g from generate_series(1, 500) g;
		create table back (like heap)`)
	dir := t.TempDir()
	res := exportWaiting(t, b, "heap", "--to", dir, "--order", "snapshot")
	part := filepath.Join(dir, filepath.Dir(filepath.FromSlash(res.Manifest)), "part-00000.csv")
	if r := b.pipe(t, "import", part, "--into", "back", "--wait"); r.code != 0 {
		t.Fatalf("import exit %d\n%s", r.code, r.stderr)
	}
	var diff int
	err := b.pool.QueryRow(t.Context(), `select count(*) from ((table heap except all table back) union all (table back except all table heap)) d`).Scan(&diff)
	if err != nil || diff != 0 || res.Rows != 500 {
		t.Fatalf("%d rows exported, %d differ after the round trip (%v)", res.Rows, diff, err)
	}
	if r := b.pipe(t, "export", "heap", "--to", dir, "--order", "sideways"); r.code == 0 {
		t.Fatal("--order sideways was taken")
	}
}

func TestExportThenImportRoundTrips(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table src(id int primary key, name text, at timestamptz);
		insert into src values (1, '=cmd()', '2026-01-01Z'), (2, '', null), (3, null, '2026-06-01 12:00Z');
		create table dst (like src including all)`)
	dir := t.TempDir()
	res := exportWaiting(t, b, "src", "--to", dir, "--format", "parquet")
	part := filepath.Join(dir, filepath.Dir(filepath.FromSlash(res.Manifest)), "part-00000.parquet")
	if r := b.pipe(t, "import", part, "--into", "dst", "--key", "id", "--wait"); r.code != 0 {
		t.Fatalf("import exit %d\n%s", r.code, r.stderr)
	}
	var diff int
	err := b.pool.QueryRow(t.Context(), `select count(*) from ((table src except table dst) union all (table dst except table src)) d`).Scan(&diff)
	if err != nil || diff != 0 {
		t.Fatalf("%d rows differ after the round trip (%v)", diff, err)
	}
}

func TestExportRefusesBadFlagsAndHostilePrefixes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	wantError(t, b.pipe(t, "export", "t"), 2, "X_CONFIG_INVALID") // no --to
	wantError(t, b.pipe(t, "export", "t", "--to", "s3://bucket/../x"), 1, "X_BLOB_KEY_INVALID")
	wantError(t, b.pipe(t, "export", "t", "--to", t.TempDir(), "--format", "xlsx"), 1, "X_JOB_INPUT_INVALID")
}

// --parallel 3 exports the table in three ranges, in one snapshot: the
// manifest lists their parts in key order, every row once.
func TestExportInParallelRanges(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table wide(id int primary key, label text); insert into wide select g, 'n' || g from generate_series(1, 3000) g; analyze wide`)
	dir := t.TempDir()
	res := exportWaiting(t, b, "wide", "--to", dir, "--page-rows", "400", "--parallel", "3")
	f, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(res.Manifest)))
	if err != nil {
		t.Fatal(err)
	}
	var m exportrows.Manifest
	if err := json.Unmarshal(f, &m); err != nil {
		t.Fatal(err)
	}
	next := 1
	for _, p := range m.Parts {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p.Key)))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		for _, l := range lines[1:] {
			if id, _, _ := strings.Cut(l, ","); id != strconv.Itoa(next) {
				t.Fatalf("part %s: row %s where %d was due", p.Key, id, next)
			}
			next++
		}
	}
	if next != 3001 || m.Ranges != 3 || res.Rows != 3000 {
		t.Fatalf("%d rows in order, %d ranges, result %+v", next-1, m.Ranges, res)
	}
}
