package importrows_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
)

// A second import of the same file into the same table with other options
// is a run of its own: it is never merged into the live one, whose options
// would be the ones that ran. The same options again, spelled with or
// without the defaults, answer the live run.
func TestTableJobKeyCoversTheOptions(t *testing.T) {
	pool := fixtures.DB(t)
	job := importrows.TableJob()
	ctx := context.Background()
	zero, thousand := 0, importrows.DefaultMaxRowErrors
	first := importrows.FileImport{Source: "file:///data/p.csv", Into: pg.Relation{Name: "people"}}
	res, err := job.Enqueue(ctx, pool, first)
	if err != nil {
		t.Fatal(err)
	}
	other := first
	other.Encoding, other.Limits = "latin-1", importrows.Limits{MaxRowErrors: &zero}
	same := first
	same.Compression, same.Limits = "auto", importrows.Limits{PageBytes: importrows.DefaultPageBytes, MaxRowErrors: &thousand}
	for name, c := range map[string]struct {
		in      importrows.FileImport
		deduped bool
	}{"other options": {other, false}, "the same with defaults spelled out": {same, true}} {
		r, err := job.Enqueue(ctx, pool, c.in)
		if err != nil {
			t.Fatal(err)
		}
		if r.Deduped != c.deduped || (r.ID == res.ID) != c.deduped {
			t.Errorf("%s: run %s (deduped %v) beside %s", name, r.ID, r.Deduped, res.ID)
		}
	}
}

// Every numeric limit is checked against its range before anything runs:
// a page near the integer limit would overflow the page's end offset.
func TestImportLimitsOutOfRangeAreRefused(t *testing.T) {
	neg := -1
	for name, l := range map[string]importrows.Limits{
		"page bytes near the integer limit": {PageBytes: math.MaxInt64 - 1},
		"page bytes over 1 GiB":             {PageBytes: importrows.MaxPageBytes + 1},
		"page bytes under 64 KiB":           {PageBytes: 1024},
		"a record over 64 MiB":              {MaxRecordBytes: importrows.MaxRecordBytesLimit + 1},
		"a negative record":                 {MaxRecordBytes: -5},
		"negative row errors":               {MaxRowErrors: &neg},
	} {
		in := importrows.FileImport{Source: "file:///data/p.csv", Into: pg.Relation{Name: "people"}, Limits: l}
		if err := in.Check(); !errors.Is(err, errcode.JobInputInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	b := setup(t, `create table people(id int primary key)`)
	in := b.put(t, "p.csv", []byte("id\n1\n"))
	o := tableOptions("people")
	o.LimitsOf = func(fileIn) importrows.Limits { return importrows.Limits{PageBytes: math.MaxInt64} }
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), in)
	if d.State != "dead" || lastCode(d) != "X_JOB_INPUT_INVALID" || d.Attempt != 1 {
		t.Fatalf("%s on attempt %d: %+v", d.State, d.Attempt, d.LastError)
	}
	if n := count(t, b, `select count(*) from people`); n != 0 {
		t.Fatalf("%d rows written", n)
	}
	o.LimitsOf, o.PageBytes = nil, math.MaxInt64
	if _, err := importrows.New(fileKey, o); !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("declaration: %v", err)
	}
}
