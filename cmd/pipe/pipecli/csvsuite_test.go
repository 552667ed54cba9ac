package pipecli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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
