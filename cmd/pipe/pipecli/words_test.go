package pipecli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Mistakes are told in the user's words: a missing local file is a missing
// file at its path; a header names which of its names matched no column
// and that matching is exact; a --where typo names the column.
func TestMistakesAreToldInTheUsersWords(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key, name text not null, "Home Town" text)`)
	missing := filepath.Join(t.TempDir(), "peopel.csv")
	r := b.pipe(t, "import", missing, "--into", "people")
	wantError(t, r, 1, "X_BLOB_NOT_FOUND")
	if !strings.HasPrefix(r.stderr, "error X_BLOB_NOT_FOUND: no such file: "+missing+"\n") || strings.Contains(r.stderr, "bucket") {
		t.Fatalf("stderr:\n%s", r.stderr)
	}

	header := writeFile(t, "h.csv", "id,Name,home_town,colour\n1,ada,Paris,red\n")
	r = b.pipe(t, "import", header, "--into", "people")
	wantError(t, r, 1, "X_IMPORT_HEADER_MISMATCH")
	for _, want := range []string{`missing name`, `"Name" (column 2; did you mean name?)`, `"home_town" (column 3; did you mean Home Town?)`,
		`"colour" (column 4)`, "names match exactly"} {
		if !strings.Contains(r.stderr, want) {
			t.Fatalf("stderr does not say %s:\n%s", want, r.stderr)
		}
	}
	// A file without a header has its first row read as one: when no name
	// in it is a column, none is quoted.
	headless := writeFile(t, "nohead.csv", "1,ada.lovelace@example.com,Paris\n")
	r = b.pipe(t, "import", headless, "--into", "people")
	wantError(t, r, 1, "X_IMPORT_HEADER_MISMATCH")
	if strings.Contains(r.stderr, "ada.lovelace") || !strings.Contains(r.stderr, "columns 1, 2 and 3") {
		t.Fatalf("stderr:\n%s", r.stderr)
	}

	r = b.pipe(t, "export", "people", "--where", `nmae = 'ada' and "Home Town" = 'Paris'`, "--to", t.TempDir())
	wantError(t, r, 1, "X_EXPORT_SOURCE_INVALID")
	if !strings.Contains(r.stderr, "names no column nmae") || strings.Contains(r.stderr, "Paris") {
		t.Fatalf("stderr:\n%s", r.stderr)
	}
	r = b.pipe(t, "export", "people", "--where", `"Home town" = 'Paris'`, "--to", t.TempDir())
	if !strings.Contains(r.stderr, `names no column "Home town"`) {
		t.Fatalf("stderr:\n%s", r.stderr)
	}
	if n := b.jobCount(t); n != 0 {
		t.Fatalf("%d runs left behind", n)
	}
}

// A refused-rows report that cannot be written — a read-only directory,
// given with --errors or beside the source — is refused before the import
// is enqueued, saying so and pointing at --errors; a writable --errors
// takes the report.
func TestReadOnlyErrorDirectoryIsRefusedBeforeTheRun(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table n(k int primary key)`)
	ro := readOnlyDir(t)
	path := writeFile(t, "n.csv", "k\n1\nx\n")
	for _, args := range [][]string{
		{"import", path, "--into", "n", "--errors", filepath.Join(ro, "errs"), "--wait"},
		{"import", path, "--into", "n", "--errors", "file://" + filepath.ToSlash(ro) + "/errs"},
	} {
		r := b.pipe(t, args...)
		wantError(t, r, 1, "X_BLOB_PERMISSION_DENIED")
		if !strings.Contains(r.stderr, "refused-rows report cannot be written") || !strings.Contains(r.stderr, "read-only") ||
			!strings.Contains(r.stderr, "--errors") {
			t.Fatalf("stderr:\n%s", r.stderr)
		}
	}
	// Beside a source in a read-only directory.
	src := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "n.csv"), []byte("k\n1\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lockDir(t, src)
	r := b.pipe(t, "import", filepath.Join(src, "n.csv"), "--into", "n", "--wait")
	wantError(t, r, 1, "X_BLOB_PERMISSION_DENIED")
	if n := b.jobCount(t); n != 0 {
		t.Fatalf("%d runs left behind", n)
	}
	errs := t.TempDir()
	r = b.pipe(t, "import", filepath.Join(src, "n.csv"), "--into", "n", "--errors", errs, "--wait")
	if r.code != 3 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if parts, _ := filepath.Glob(filepath.Join(errs, "*", "errors-00000.ndjson")); len(parts) != 1 {
		t.Fatalf("report parts %v", parts)
	}
}
