package importrows_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// runParallel enqueues in for jobs, works it with two workers and answers
// the parent once it settles.
func runParallel(t *testing.T, b *bundle, jobs importrows.Jobs[fileIn], in fileIn) *pipeline.RunDetail {
	t.Helper()
	res, err := jobs.Import.Enqueue(t.Context(), b.pool, in)
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, b.pool, jobs.All()...)
	startWorker(t, b.pool, jobs.All()...)
	return awaitSettled(t, b.pool, res.ID)
}

// rangeRuns answers the parent's range runs, settled.
func rangeRuns(t *testing.T, b *bundle, name string) []*pipeline.RunDetail {
	t.Helper()
	page, err := pipeline.NewAdmin(b.pool).List(t.Context(), pipeline.ListFilter{Name: name + ".range"})
	if err != nil {
		t.Fatal(err)
	}
	var out []*pipeline.RunDetail
	for _, r := range page.Jobs {
		out = append(out, awaitSettled(t, b.pool, r.ID))
	}
	return out
}

// TestParallelMaxRowErrorsCountsAcrossRanges: each range refuses fewer rows
// than the limit, all of them together more; the parent fails as the
// sequential import does, and the staging tables are gone.
func TestParallelMaxRowErrorsCountsAcrossRanges(t *testing.T) {
	b := setup(t, itemsDDL)
	limit := 20
	seqO := parallelOptions("test.seq", "seq", 1, "id")
	seqO.MaxRowErrors = &limit
	parO := parallelOptions("test.par", "par", 4, "id")
	parO.MaxRowErrors = &limit
	in := b.put(t, "items.csv", misleadingCSV(3000)) // 31 refused rows
	seq, _ := run(t, b.pool, importrows.MustNew(fileKey, seqO), in)
	jobs, err := importrows.NewJobs(fileKey, parO)
	if err != nil {
		t.Fatal(err)
	}
	par := runParallel(t, b, jobs, in)
	if lastCode(seq) != "X_IMPORT_TOO_MANY_ERRORS" || lastCode(par) != lastCode(seq) || par.State != "dead" {
		t.Fatalf("sequential %s %+v, parallel %s %+v", seq.State, seq.LastError, par.State, par.LastError)
	}
	for _, r := range rangeRuns(t, b, "test.par") {
		var res importrows.Result
		if err := decodeResult(r, &res); err != nil || r.State != "done" || res.Refused == 0 || res.Refused > int64(limit) {
			t.Fatalf("range %s %+v: each range is under the limit", r.State, res)
		}
	}
	if n := count(t, b, `select count(*) from pg_class where relname like 'pipe_import_%'`); n != 0 {
		t.Fatalf("%d staging tables left", n)
	}
}

// TestParallelDeadRangeFailsTheParent: a row the table refuses in one range
// dead-letters that range's run; the parent fails with its code, as the
// sequential import fails.
func TestParallelDeadRangeFailsTheParent(t *testing.T) {
	b := setup(t, `create table seq(id int, name text, qty int not null check (qty <> 1500)); create table par(like seq including all)`)
	in := b.put(t, "items.csv", misleadingCSV(3000))
	seq, _ := run(t, b.pool, importrows.MustNew(fileKey, parallelOptions("test.seq", "seq", 1)), in)
	jobs, err := importrows.NewJobs(fileKey, parallelOptions("test.par", "par", 4))
	if err != nil {
		t.Fatal(err)
	}
	par := runParallel(t, b, jobs, in)
	if lastCode(seq) != "X_IMPORT_WRITE_REFUSED" || lastCode(par) != lastCode(seq) || par.State != "dead" {
		t.Fatalf("sequential %s %+v, parallel %s %+v", seq.State, seq.LastError, par.State, par.LastError)
	}
	dead := 0
	for _, r := range rangeRuns(t, b, "test.par") {
		if r.State == "dead" && lastCode(r) == "X_IMPORT_WRITE_REFUSED" {
			dead++
		}
	}
	if dead != 1 {
		t.Fatalf("%d ranges dead, want the one holding the refused row", dead)
	}
	if par.LastError.Meta["range"] == "" {
		t.Fatalf("the parent's error %+v does not name the range", par.LastError)
	}
}

type pqItem struct {
	ID   int64  `parquet:"id"`
	Name string `parquet:"name"`
	Qty  string `parquet:"qty"`
}

// TestParallelParquetEqualsSequential: a Parquet file's row groups are the
// ranges; keys repeat across them, refused rows keep their row numbers.
func TestParallelParquetEqualsSequential(t *testing.T) {
	b := setup(t, itemsDDL)
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqItem](&buf, parquet.MaxRowsPerRowGroup(100))
	rows := make([]pqItem, 1000)
	for i := range rows {
		rows[i] = pqItem{ID: int64(i % 173), Name: strings.Repeat("x", i%13), Qty: fmt.Sprint(i)}
		if i%61 == 0 {
			rows[i].Qty = "many"
		}
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	seqO := parallelOptions("test.seq", "seq", 1, "id")
	parO := parallelOptions("test.par", "par", 3, "id")
	parO.RangeBytes = 1
	in := b.put(t, "items.parquet", buf.Bytes())
	seq, seqRes := run(t, b.pool, importrows.MustNew(fileKey, seqO), in)
	jobs, err := importrows.NewJobs(fileKey, parO)
	if err != nil {
		t.Fatal(err)
	}
	par := runParallel(t, b, jobs, in)
	var parRes importrows.Result
	if err := decodeResult(par, &parRes); err != nil || par.State != "done" || seq.State != "done" {
		t.Fatalf("sequential %s, parallel %s %+v", seq.State, par.State, par.LastError)
	}
	assertRanges(t, par, 3)
	assertSameTables(t, b)
	seqRep, parRep := readReport(t, b, seq.RunID), readAllReport(t, b, par.RunID)
	if parRes.Rows != seqRes.Rows || parRes.Refused == 0 || fmt.Sprint(seqRep) != fmt.Sprint(parRep) {
		t.Fatalf("parallel %+v %v, sequential %+v %v", parRes, parRep, seqRes, seqRep)
	}
}

// TestParallelParentSweepsOnlyItsOwnParts: a parallel import's parent
// sweeps its own half-written report parts when an attempt starts (each
// look after a wait is one), never a range's, whose writes are in flight
// under the parent's folder.
func TestParallelParentSweepsOnlyItsOwnParts(t *testing.T) {
	b := setup(t, itemsDDL)
	jobs, err := importrows.NewJobs(fileKey, parallelOptions("test.par", "par", 2, "id"))
	if err != nil {
		t.Fatal(err)
	}
	in := b.put(t, "items.csv", misleadingCSV(3000))
	runID := "0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a11"
	res, err := jobs.Import.Enqueue(t.Context(), b.pool, in, pipeline.EnqueueOptions{RunID: runID})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(b.dir, "errors", runID)
	own := filepath.Join(dir, "errors-00000.ndjson.17f1c2a3b4c5d6e7.tmp")
	ranges := filepath.Join(dir, "range-00099", "errors-00000.ndjson.17f1c2a3b4c5d6e7.tmp")
	for _, p := range []string{own, ranges} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	startWorker(t, b.pool, jobs.All()...)
	if d := awaitSettled(t, b.pool, res.ID); d.State != "done" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	if _, err := os.Stat(own); !os.IsNotExist(err) {
		t.Fatalf("the parent's own temporary part was not swept: %v", err)
	}
	if _, err := os.Stat(ranges); err != nil {
		t.Fatalf("the parent swept a range's temporary part: %v", err)
	}
}
