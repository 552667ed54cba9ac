package importrows_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/internal/pgcatalog"
)

// csvCase is one file of the CSV edge-case suite, loaded by pipe and by
// COPY … (format csv, header) into two tables of text columns, and what the
// README says of it when the two differ.
type csvCase struct {
	name string
	cols []string
	data []byte
	// refused is how many rows pipe refuses one by one (COPY takes them, or
	// fails the whole file); copyFails says COPY refuses the file.
	refused   int
	copyFails bool
	// pipeFails is the code pipe fails the whole run with, if it does.
	pipeFails string
	// maxRecord, when set, raises pipe's record limit.
	maxRecord int
	// want is the parse the suite expects, when it gives one.
	want [][]string
	// documented is what the README says of pipe's reading where it
	// differs from COPY, when a case checks it.
	documented string
}

// spectrumCases reads csv-spectrum's files and expected parses.
func spectrumCases(t *testing.T) []csvCase {
	t.Helper()
	files, err := filepath.Glob("testdata/csv-spectrum/csvs/*.csv")
	if err != nil || len(files) < 12 {
		t.Fatalf("the csv-spectrum files: %v %v", files, err)
	}
	var cases []csvCase
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".csv")
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := csvCase{name: name, data: data, cols: headerOf(t, data)}
		if name == "location_coordinates" {
			c.refused = 1 // a quote inside an unquoted field: pipe is strict, COPY drops the quotes
		} else {
			c.want = expectedParse(t, name, c.cols)
		}
		cases = append(cases, c)
	}
	return cases
}

// headerOf answers the names of a file's first line.
func headerOf(t *testing.T, data []byte) []string {
	t.Helper()
	line, _, _ := bufio.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF")))).ReadLine()
	return strings.Split(strings.TrimSuffix(string(line), "\r"), ",")
}

// expectedParse reads the suite's JSON parse of name as rows in cols'
// order.
func expectedParse(t *testing.T, name string, cols []string) [][]string {
	t.Helper()
	data, err := os.ReadFile("testdata/csv-spectrum/json/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]string
	if err := json.Unmarshal(data, &objs); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rows := make([][]string, len(objs))
	for i, o := range objs {
		for _, c := range cols {
			rows[i] = append(rows[i], o[c])
		}
	}
	return rows
}

// extraCases are the corner cases other public suites cover that
// csv-spectrum lacks.
func extraCases() []csvCase {
	long := strings.Repeat("x", 200<<10)
	return []csvCase{
		{name: "lf", cols: []string{"a", "b"}, data: []byte("a,b\n1,2\n3,4\n"), want: [][]string{{"1", "2"}, {"3", "4"}}},
		{name: "crlf", cols: []string{"a", "b"}, data: []byte("a,b\r\n1,2\r\n3,4\r\n"), want: [][]string{{"1", "2"}, {"3", "4"}}},
		{name: "quoted crlf", cols: []string{"a", "b"}, data: []byte("a,b\r\n\"x\r\ny\",2\r\n"), want: [][]string{{"x\r\ny", "2"}}},
		{name: "no final newline", cols: []string{"a", "b"}, data: []byte("a,b\n1,2\n3,4"), want: [][]string{{"1", "2"}, {"3", "4"}}},
		{name: "only spaces", cols: []string{"a", "b"}, data: []byte("a,b\n   ,\" \"\n"), want: [][]string{{"   ", " "}}},
		{name: "bom", cols: []string{"a", "b"}, data: []byte("\uFEFFa,b\n1,2\n"), want: [][]string{{"1", "2"}}},
		{name: "long field", cols: []string{"a", "b"}, data: []byte("a,b\n1,\"" + long + "\"\n2,3\n"), pipeFails: "X_IMPORT_RECORD_TOO_LARGE"},
		{name: "long field, limit raised", cols: []string{"a", "b"}, data: []byte("a,b\n1,\"" + long + "\"\n2,3\n"),
			maxRecord: 1 << 20, want: [][]string{{"1", long}, {"2", "3"}}},
		{name: "empty last line", cols: []string{"a", "b"}, data: []byte("a,b\n1,2\n\n"), copyFails: true, want: [][]string{{"1", "2"}}},
		{name: "blank line inside", cols: []string{"a", "b"}, data: []byte("a,b\n1,2\n\n3,4\n"), copyFails: true, want: [][]string{{"1", "2"}, {"3", "4"}}},
		{name: "a field too many", cols: []string{"a", "b"}, data: []byte("a,b\n1,2,3\n4,5\n"), refused: 1, copyFails: true},
		{name: "a field too few", cols: []string{"a", "b"}, data: []byte("a,b\n1\n4,5\n"), refused: 1, copyFails: true},
		{name: "unterminated quote", cols: []string{"a", "b"}, data: []byte("a,b\n1,2\n3,\"4\n"), pipeFails: "X_IMPORT_RECORD_INVALID", copyFails: true},
		{name: "duplicate header names", cols: []string{"a", "b"}, data: []byte("a,a\n1,2\n"), pipeFails: "X_IMPORT_HEADER_MISMATCH"},
	}
}

// lineEndCases are files of classic Mac line ends (a bare CR), which COPY
// reads as pipe does, and files whose line ends change, which COPY fails
// and pipe reads by its first line's end.
func lineEndCases() []csvCase {
	ab := []string{"a", "b"}
	const mixed = "where COPY fails a file whose line ends change (it reads LF, CRLF or a bare CR, as the first line ends), pipe reads by the first line's: "
	return []csvCase{
		{name: "cr", cols: ab, data: []byte("a,b\r1,2\r3,4\r"), want: [][]string{{"1", "2"}, {"3", "4"}}},
		{name: "cr, no final line end", cols: ab, data: []byte("a,b\r1,2\r3,4"), want: [][]string{{"1", "2"}, {"3", "4"}}},
		{name: "cr, line ends in quotes", cols: ab, data: []byte("a,b\r\"x\r\ny\",\"p\nq\"\r\"r\rs\",2\r"),
			want: [][]string{{"x\r\ny", "p\nq"}, {"r\rs", "2"}}},
		{name: "cr, quoted header", cols: []string{"a\rb", "c"}, data: []byte("\"a\rb\",c\r1,2\r"), want: [][]string{{"1", "2"}}},
		{name: "cr, bom", cols: ab, data: []byte("\uFEFFa,b\r1,2\r"), want: [][]string{{"1", "2"}}},
		{name: "cr, header alone", cols: ab, data: []byte("a,b\r"), want: [][]string{}},
		{name: "cr, blank line", cols: ab, data: []byte("a,b\r1,2\r\r3,4\r"), copyFails: true, want: [][]string{{"1", "2"}, {"3", "4"}}},
		{name: "cr, then crlf", cols: ab, data: []byte("a,b\r1,2\r\n3,4\r\n"), refused: 2, copyFails: true, want: [][]string{{"1", "2"}},
			documented: mixed + "LF and CRLF alike, a bare CR inside an LF line as data, and in a bare-CR file a line feed outside quotes refuses its row"},
		{name: "cr, then lf", cols: ab, data: []byte("a,b\r1,2\n3,4\n"), refused: 1, copyFails: true, want: [][]string{},
			documented: "in a bare-CR file a line feed outside quotes refuses its row"},
		{name: "lf, then crlf", cols: ab, data: []byte("a,b\n1,2\r\n3,4\r\n"), copyFails: true, want: [][]string{{"1", "2"}, {"3", "4"}},
			documented: "LF and CRLF alike"},
		{name: "crlf, then lf", cols: ab, data: []byte("a,b\r\n1,2\n3,4\n"), copyFails: true, want: [][]string{{"1", "2"}, {"3", "4"}},
			documented: "LF and CRLF alike"},
		{name: "lf, then a bare cr in a line", cols: ab, data: []byte("a,b\n1,x\ry\n"), copyFails: true, want: [][]string{{"1", "x\ry"}},
			documented: "a bare CR inside an LF line as data"},
		{name: "lf, then cr", cols: ab, data: []byte("a,b\n1,2\r3,4\r"), refused: 1, copyFails: true, want: [][]string{},
			documented: "a bare CR inside an LF line as data"},
	}
}

// The CSV edge cases, loaded by pipe's importer and by PostgreSQL's COPY
// into identical tables, give the same table — or, where docs/imports.md says
// pipe differs, the documented difference: a row refused on its own where
// COPY changes it or fails the whole file. Where the suite gives the
// expected parse, pipe's table is it.
func TestCSVEdgeCasesAgreeWithCOPY(t *testing.T) {
	b := setup(t, "")
	guide := guideText(t)
	for i, c := range slices.Concat(spectrumCases(t), extraCases(), lineEndCases()) {
		t.Run(c.name, func(t *testing.T) {
			viaPipe, viaCopy := fmt.Sprintf("pipe_%d", i), fmt.Sprintf("copy_%d", i)
			createTextTable(t, b.pool, viaPipe, c.cols)
			createTextTable(t, b.pool, viaCopy, c.cols)
			o := tableOptions(viaPipe)
			o.MaxRecordBytes = c.maxRecord
			d, res := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, fmt.Sprintf("case%d.csv", i), c.data))
			if c.pipeFails != "" {
				if d.State != "dead" || lastCode(d) != c.pipeFails || count(t, b, "select count(*) from "+viaPipe) != 0 {
					t.Fatalf("pipe: %s %s, want dead with %s and nothing written", d.State, lastCode(d), c.pipeFails)
				}
			} else if d.State != "done" || res.Refused != int64(c.refused) {
				t.Fatalf("pipe: %s, %d rows refused (%+v), want done with %d refused", d.State, res.Refused, d.LastError, c.refused)
			}
			copyErr := copyCSV(t, b.pool, viaCopy, c.data)
			if (copyErr != nil) != c.copyFails {
				t.Fatalf("COPY: %v, want failing %v", copyErr, c.copyFails)
			}
			pipeRows, copyRows := tableRows(t, b.pool, viaPipe, c.cols), tableRows(t, b.pool, viaCopy, c.cols)
			loaded := pipeRows // the suite's parse is pipe's, or COPY's where pipe refuses the file
			if c.pipeFails != "" {
				loaded = copyRows
			}
			if c.want != nil && !slices.Equal(loaded, joinRows(c.want)) {
				t.Errorf("the table is not the suite's parse:\n%q\nwant\n%q", loaded, joinRows(c.want))
			}
			if c.documented != "" && !strings.Contains(guide, c.documented) {
				t.Errorf("docs/imports.md does not say %q", c.documented)
			}
			if c.copyFails || c.pipeFails != "" {
				return
			}
			if c.refused == 0 && !slices.Equal(pipeRows, copyRows) {
				t.Errorf("pipe's table differs from COPY's:\n%q\n%q", pipeRows, copyRows)
			}
			if c.refused > 0 && (len(copyRows)-len(pipeRows) != c.refused || !subset(pipeRows, copyRows)) {
				t.Errorf("pipe's table is not COPY's less the refused rows:\n%q\n%q", pipeRows, copyRows)
			}
		})
	}
}

// guideText answers the imports guide with each run of white space one
// space.
func guideText(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../docs/imports.md")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(data)), " ")
}

func createTextTable(t *testing.T, pool *pgxpool.Pool, name string, cols []string) {
	t.Helper()
	defs := make([]string, len(cols))
	for i, c := range cols {
		defs[i] = pgcatalog.Quote(c) + " text"
	}
	if _, err := pool.Exec(context.Background(), "create table "+name+" ("+strings.Join(defs, ", ")+")"); err != nil {
		t.Fatal(err)
	}
}

// copyCSV loads data into table with COPY … (format csv, header).
func copyCSV(t *testing.T, pool *pgxpool.Pool, table string, data []byte) error {
	t.Helper()
	conn, err := pool.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	_, err = conn.Conn().PgConn().CopyFrom(context.Background(), bytes.NewReader(data), "copy "+table+" from stdin (format csv, header)")
	return err
}

// tableRows answers a table's rows, each as its fields' JSON (NULL as
// null), sorted.
func tableRows(t *testing.T, pool *pgxpool.Pool, table string, cols []string) []string {
	t.Helper()
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = pgcatalog.Quote(c)
	}
	rows, err := pool.Query(context.Background(), "select json_build_array("+strings.Join(quoted, ", ")+")::text from "+table)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	slices.Sort(out)
	return out
}

// joinRows answers rows as tableRows does.
func joinRows(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		var quoted []string
		for _, f := range r {
			j, _ := json.Marshal(f)
			quoted = append(quoted, string(j))
		}
		out[i] = "[" + strings.Join(quoted, ", ") + "]"
	}
	slices.Sort(out)
	return out
}

// subset reports whether every row of a is in b, as many times.
func subset(a, b []string) bool {
	left := slices.Clone(b)
	for _, r := range a {
		i := slices.Index(left, r)
		if i < 0 {
			return false
		}
		left = slices.Delete(left, i, i+1)
	}
	return true
}
