package pipecli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// csv-spectrum's files, loaded by `pipe import` and by COPY … (format csv,
// header) into identical tables, give the same rows.
func TestImportCommandAgreesWithCOPYOnTheCSVSuite(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, name := range []string{"quotes_and_newlines", "newlines_crlf", "escaped_quotes", "empty_crlf", "utf8", "json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "importrows", "testdata", "csv-spectrum", "csvs", name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		cols := "a text, b text"
		switch name {
		case "empty_crlf", "utf8", "newlines_crlf":
			cols += ", c text"
		case "json":
			cols = "key text, val text"
		}
		b.exec(t, "create table via_pipe_"+name+" ("+cols+"); create table via_copy_"+name+" ("+cols+")")
		r := b.pipe(t, "import", writeFile(t, name+".csv", string(data)), "--into", "via_pipe_"+name, "--wait")
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", name, r.code, r.stderr)
		}
		conn, err := b.pool.Acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		_, err = conn.Conn().PgConn().CopyFrom(t.Context(), bytes.NewReader(data), "copy via_copy_"+name+" from stdin (format csv, header)")
		conn.Release()
		if err != nil {
			t.Fatal(err)
		}
		viaPipe, viaCopy := rowsOf(t, b, "via_pipe_"+name), rowsOf(t, b, "via_copy_"+name)
		if len(viaPipe) == 0 || !slices.Equal(viaPipe, viaCopy) {
			t.Errorf("%s: pipe loaded %q, COPY %q", name, viaPipe, viaCopy)
		}
	}
}

// rowsOf answers a table's rows as JSON objects (NULL as null), sorted.
func rowsOf(t *testing.T, b *bundle, table string) []string {
	t.Helper()
	rows, err := b.pool.Query(t.Context(), "select row_to_json(r)::text from "+table+" r order by 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// A CSV file without a header line (Go's own zip_sums.csv is one, and so
// is each csv-spectrum file read without its header) loads with
// --no-header --columns as COPY … (format csv) loads it — in one run and
// in parallel ranges — and an empty one loads no rows, as COPY's does.
func TestImportWithoutAHeaderAgreesWithCOPY(t *testing.T) {
	t.Parallel()
	b := setup(t)
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"zip_sums": filepath.Join(strings.TrimSpace(string(goroot)), "src", "cmd", "go", "internal", "modfetch", "zip_sum_test", "testdata", "zip_sums.csv")}
	for _, name := range []string{"quotes_and_newlines", "escaped_quotes", "utf8"} {
		files[name] = filepath.Join("..", "..", "..", "importrows", "testdata", "csv-spectrum", "csvs", name+".csv")
	}
	empty := writeFile(t, "empty.csv", "")
	files["empty"] = empty
	for name, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cols, names := "a text, b text", "a,b"
		switch name {
		case "zip_sums":
			cols, names = "mod text, ver text, hash text, sum text", "mod,ver,hash,sum"
		case "utf8":
			cols, names = cols+", c text", names+",c"
		}
		b.exec(t, "create table copy_"+name+" ("+cols+")")
		conn, err := b.pool.Acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		_, err = conn.Conn().PgConn().CopyFrom(t.Context(), bytes.NewReader(data), "copy copy_"+name+" from stdin (format csv)")
		conn.Release()
		if err != nil {
			t.Fatal(err)
		}
		viaCopy := rowsOf(t, b, "copy_"+name)
		for _, parallel := range []string{"1", "3"} {
			table := "pipe_" + name + "_" + parallel
			b.exec(t, "create table "+table+" ("+cols+")")
			r := b.pipe(t, "import", writeFile(t, name+".csv", string(data)), "--into", table, "--no-header", "--columns", names,
				"--parallel", parallel, "--range-bytes", "65536", "--page-bytes", "65536", "--wait")
			if r.code != 0 {
				t.Fatalf("%s --parallel %s: exit %d\n%s", name, parallel, r.code, r.stderr)
			}
			if viaPipe := rowsOf(t, b, table); (len(viaPipe) == 0) != (name == "empty") || !slices.Equal(viaPipe, viaCopy) {
				t.Errorf("%s --parallel %s: pipe loaded %d rows, COPY %d, or other rows", name, parallel, len(viaPipe), len(viaCopy))
			}
		}
	}
	r := b.pipe(t, "import", empty, "--into", "copy_empty", "--no-header")
	wantError(t, r, 1, "X_JOB_INPUT_INVALID")
	if !strings.Contains(r.stderr, "--no-header --columns") {
		t.Fatalf("--no-header without --columns does not say what to add:\n%s", r.stderr)
	}
}
