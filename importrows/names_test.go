package importrows_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
)

// A table name over 63 bytes would be cut by PostgreSQL, with a NOTICE, to
// name the table its first 63 bytes name: the import is refused instead,
// and that table is left alone.
func TestImportRefusesNamesOverPostgresLimit(t *testing.T) {
	short := strings.Repeat("t", 63)
	b := setup(t, `create table `+short+`(id int primary key, v text)`)
	o := tableOptions(short + "_archive")
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, "t.csv", []byte("id,v\n1,a\n")))
	if d.State != "dead" || lastCode(d) != "X_IMPORT_TABLE_INVALID" || d.Attempt != 1 {
		t.Fatalf("%s on attempt %d: %+v", d.State, d.Attempt, d.LastError)
	}
	if !strings.Contains(d.LastError.Message, "71 bytes, over PostgreSQL's 63-byte limit") {
		t.Fatalf("message %q", d.LastError.Message)
	}
	if n := count(t, b, `select count(*) from `+short); n != 0 {
		t.Fatalf("%d rows written into the table the cut name names", n)
	}
}

// The stock job refuses long names in its input before it runs, and a
// declaration refuses long column names.
func TestImportInputAndDeclarationRefuseLongNames(t *testing.T) {
	long := strings.Repeat("c", 64)
	for name, in := range map[string]importrows.FileImport{
		"table":  {Source: "file:///tmp/f.csv", Into: pg.Relation{Name: long}},
		"schema": {Source: "file:///tmp/f.csv", Into: pg.Relation{Schema: long, Name: "t"}},
		"key":    {Source: "file:///tmp/f.csv", Into: pg.Relation{Name: "t"}, Key: []string{long}},
		"column": {Source: "file:///tmp/f.csv", Into: pg.Relation{Name: "t"}, Columns: []string{"id", long}},
	} {
		if err := in.Check(); !errors.Is(err, errcode.ImportTableInvalid) || !strings.Contains(err.Error(), "64 bytes") {
			t.Errorf("%s: %v", name, err)
		}
	}
	o := tableOptions("t")
	o.Columns = []string{"id", long}
	if _, err := importrows.New(fileKey, o); !errors.Is(err, errcode.JobDeclarationInvalid) || !strings.Contains(err.Error(), "63-byte limit") {
		t.Fatalf("declaration: %v", err)
	}
}
