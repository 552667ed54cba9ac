package exportrows_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pg"
)

// A table name over 63 bytes would be cut by PostgreSQL to name the table
// its first 63 bytes name: the export is refused instead, before it reads.
func TestExportRefusesNamesOverPostgresLimit(t *testing.T) {
	short := strings.Repeat("t", 63)
	b := setup(t, `create table `+short+`(id int primary key); insert into `+short+` values (1)`)
	in := b.in(t, short+"_archive")
	d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
	if d.State != "dead" || lastCode(d) != "X_EXPORT_SOURCE_INVALID" || d.Attempt != 1 || len(d.Steps) != 0 {
		t.Fatalf("%s on attempt %d, %d steps: %s", d.State, d.Attempt, len(d.Steps), lastError(d))
	}
	if !strings.Contains(d.LastError.Message, "71 bytes, over PostgreSQL's 63-byte limit") {
		t.Fatalf("message %q", d.LastError.Message)
	}
	if objs, err := openBucket(t, b.bucket).List(context.Background(), ""); err != nil || len(objs) != 0 {
		t.Fatalf("%d objects written (%v)", len(objs), err)
	}
	long := strings.Repeat("c", 64)
	for name, in := range map[string]exportrows.TableExport{
		"schema": {From: pg.Relation{Schema: long, Name: "t"}, To: "/tmp/x"},
		"column": {From: pg.Relation{Name: "t"}, Columns: []string{"id", long}, To: "/tmp/x"},
		"key":    {From: pg.Relation{Name: "t"}, Key: []string{long}, To: "/tmp/x"},
	} {
		if err := in.Check(); !errors.Is(err, errcode.ExportSourceInvalid) || !strings.Contains(err.Error(), "64 bytes") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Page and row-group sizes are checked against their range, in the stock
// job's input and in a declaration.
func TestExportSettingsOutOfRangeAreRefused(t *testing.T) {
	for _, n := range []int{-1, exportrows.MaxPageRows + 1, math.MaxInt} {
		in := exportrows.TableExport{From: pg.Relation{Name: "t"}, To: "/tmp/x", PageRows: n}
		if err := in.Check(); !errors.Is(err, errcode.JobInputInvalid) {
			t.Errorf("page rows %d: %v", n, err)
		}
		o := options()
		o.RowGroupRows = n
		if _, err := exportrows.New(exportKey, o); !errors.Is(err, errcode.JobDeclarationInvalid) {
			t.Errorf("row-group rows %d: %v", n, err)
		}
	}
}

// Two exports that differ in what they write are two runs; the same export
// asked again, its defaults spelled out, answers the live run.
func TestTableJobKeyCoversTheOptions(t *testing.T) {
	b := setup(t, "")
	job := exportrows.TableJob()
	ctx := context.Background()
	first := exportrows.TableExport{From: pg.Relation{Name: "t"}, To: "/tmp/x"}
	res, err := job.Enqueue(ctx, b.pool, first)
	if err != nil {
		t.Fatal(err)
	}
	other := first
	other.Where = "id > 1"
	same := first
	same.Format, same.Order, same.PageRows = exportrows.CSV, exportrows.ByKey, exportrows.DefaultPageRows
	for name, c := range map[string]struct {
		in      exportrows.TableExport
		deduped bool
	}{"another filter": {other, false}, "the defaults spelled out": {same, true}} {
		r, err := job.Enqueue(ctx, b.pool, c.in)
		if err != nil {
			t.Fatal(err)
		}
		if r.Deduped != c.deduped || (r.ID == res.ID) != c.deduped {
			t.Errorf("%s: run %s (deduped %v) beside %s", name, r.ID, r.Deduped, res.ID)
		}
	}
}
