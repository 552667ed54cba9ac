package importrows_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

const itemsDDL = `create table seq(id int primary key, name text, qty int not null);
	create table par(like seq including all)`

// misleadingCSV is a CSV file built to mislead a range cut and to test the
// merge: quoted fields of line ends and doubled quotes on every few rows
// (so quotes cross the range edges), one quoted field of line ends longer
// than a whole range in its middle, quoted text that reads as records,
// keys repeated across the whole file (so duplicates straddle every range
// edge), and rows whose qty is refused.
func misleadingCSV(rows int) []byte {
	var b strings.Builder
	b.WriteString("id,name,qty\n")
	for i := range rows {
		name := fmt.Sprintf("n%d", i)
		switch {
		case i == rows/2:
			name = `"` + strings.Repeat("\n\"\"x,\n", 1500) + `"`
		case i%5 == 0:
			name = fmt.Sprintf("\"a\n\"\"%d\"\"\nb,c\"", i)
		case i%7 == 0:
			name = "\"\n9,fake,1\n9,fake,2\n\""
		}
		qty := fmt.Sprint(i)
		if i%97 == 0 {
			qty = "many"
		}
		fmt.Fprintf(&b, "%d,%s,%s\n", i%301, name, qty)
	}
	return []byte(b.String())
}

// parallelOptions is the import into table, by ranges of about 8 KiB.
func parallelOptions(name, table string, parallel int, key ...string) importrows.Options[fileIn] {
	o := tableOptions(table, key...)
	o.Name, o.Parallel, o.RangeBytes, o.MaxRecordBytes = name, parallel, 8<<10, 16<<10
	return o
}

// importBoth imports the file sequentially into seq and by ranges into par
// and answers both runs' results and reports.
func importBoth(t *testing.T, b *bundle, key string, data []byte, parallel int, keys ...string) (seqRes, parRes importrows.Result, par *pipeline.RunDetail, seqRep, parRep []map[string]any) {
	t.Helper()
	seqJob := importrows.MustNew(fileKey, parallelOptions("test.seq", "seq", 1, keys...))
	jobs, err := importrows.NewJobs(fileKey, parallelOptions("test.par", "par", parallel, keys...))
	if err != nil {
		t.Fatal(err)
	}
	in := b.put(t, key, data)
	seq, seqRes := run(t, b.pool, seqJob, in)
	if seq.State != "done" {
		t.Fatalf("sequential import %s %+v", seq.State, seq.LastError)
	}
	res, err := jobs.Import.Enqueue(t.Context(), b.pool, in)
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, b.pool, jobs.All()...)
	startWorker(t, b.pool, jobs.All()...)
	par = awaitSettled(t, b.pool, res.ID)
	if par.State != "done" {
		t.Fatalf("parallel import %s %+v", par.State, par.LastError)
	}
	if err := decodeResult(par, &parRes); err != nil {
		t.Fatal(err)
	}
	return seqRes, parRes, par, readReport(t, b, seq.RunID), readAllReport(t, b, par.RunID)
}

// TestParallelCSVEqualsSequential imports a misleading CSV file with an
// upsert key both ways: the tables are equal row for row (the last
// occurrence of each key in the file won in both), the refused rows are
// the same with the same line numbers, in file order, and the result
// counts agree.
func TestParallelCSVEqualsSequential(t *testing.T) {
	b := setup(t, itemsDDL)
	data := misleadingCSV(3000)
	seqRes, parRes, par, seqRep, parRep := importBoth(t, b, "items.csv", data, 4, "id")
	assertRanges(t, par, 4)
	assertSameTables(t, b)
	if !strings.Contains(string(par.Progress), "4 of 4 ranges done") {
		t.Fatalf("the parent's progress %s does not count the ranges done", par.Progress)
	}
	if parRes.Rows != seqRes.Rows || parRes.Refused != seqRes.Refused || parRes.Refused == 0 || parRes.Bytes != seqRes.Bytes {
		t.Fatalf("parallel %+v, sequential %+v", parRes, seqRes)
	}
	if !reflect.DeepEqual(parRep, seqRep) {
		t.Fatalf("reports differ:\nparallel   %v\nsequential %v", parRep, seqRep)
	}
	if n := count(t, b, `select count(*) from pg_class where relname like 'pipe_import_%'`); n != 0 {
		t.Fatalf("%d staging tables left", n)
	}
}

// TestParallelWithoutKeyEqualsSequential: without a key the ranges COPY
// into the table; the rows are the same multiset.
func TestParallelWithoutKeyEqualsSequential(t *testing.T) {
	b := setup(t, `create table seq(id int, name text, qty int not null); create table par(like seq)`)
	seqRes, parRes, par, seqRep, parRep := importBoth(t, b, "items.csv", misleadingCSV(3000), 3)
	assertRanges(t, par, 3)
	assertSameTables(t, b)
	if parRes.Rows != seqRes.Rows || !reflect.DeepEqual(parRep, seqRep) {
		t.Fatalf("parallel %+v, sequential %+v", parRes, seqRes)
	}
}

// TestParallelNDJSONEqualsSequential: an NDJSON file by ranges, duplicates
// of the key across them and refused rows.
func TestParallelNDJSONEqualsSequential(t *testing.T) {
	b := setup(t, itemsDDL)
	var s strings.Builder
	for i := range 4000 {
		qty := fmt.Sprint(i)
		if i%89 == 0 {
			qty = `"lots"`
		}
		fmt.Fprintf(&s, "{\"id\":%d,\"name\":\"line\\nbreak %d\",\"qty\":%s}\n\n", i%257, i, qty)
	}
	seqRes, parRes, par, seqRep, parRep := importBoth(t, b, "items.ndjson", []byte(s.String()), 4, "id")
	assertRanges(t, par, 4)
	assertSameTables(t, b)
	if parRes.Rows != seqRes.Rows || parRes.Refused == 0 || !reflect.DeepEqual(parRep, seqRep) {
		t.Fatalf("parallel %+v %v, sequential %+v %v", parRes, parRep, seqRes, seqRep)
	}
}

func assertSameTables(t *testing.T, b *bundle) {
	t.Helper()
	diff := count(t, b, `select count(*) from (
		(select * from seq except all select * from par) union all
		(select * from par except all select * from seq)) d`)
	if n := count(t, b, `select count(*) from par`); diff != 0 || n == 0 {
		t.Fatalf("the tables differ in %d rows (%d rows by ranges)", diff, n)
	}
}

// assertRanges checks that the parent cut the file into n ranges.
func assertRanges(t *testing.T, d *pipeline.RunDetail, n int) {
	t.Helper()
	var steps []string
	for _, s := range d.Steps {
		steps = append(steps, s.Name)
	}
	if !slices.Contains(steps, "ranges-enqueue") {
		t.Fatalf("the run did not split its file: steps %v", steps)
	}
	for _, s := range d.Steps {
		if s.Name == "ranges" && strings.Count(string(s.Output), "off") != n {
			t.Fatalf("ranges %s, want %d", s.Output, n)
		}
	}
}

func decodeResult(d *pipeline.RunDetail, r *importrows.Result) error {
	return json.Unmarshal(d.Result, r)
}

// readAllReport answers the refusals of every part under the run's prefix,
// the ranges' folders among them, in the parts' name order.
func readAllReport(t *testing.T, b *bundle, runID string) []map[string]any {
	t.Helper()
	root := filepath.Join(b.dir, "errors", runID)
	var parts []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			parts = append(parts, p)
		}
		return nil
	})
	slices.Sort(parts)
	var out []map[string]any
	for _, p := range parts {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(raw)) {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
		}
	}
	return out
}
