package exportrows_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pg"
)

// A prefix that could leave the bucket is refused before anything is
// written, and the refusal is terminal.
func TestHostilePrefixesAreRefusedBeforeAnyWrite(t *testing.T) {
	b := setup(t, `create table t(id int primary key); insert into t values (1)`)
	for _, prefix := range []string{"../x", "a/../../b", "/abs", "/", "a//b", "./a", `a\b`, "a/\x01"} {
		in := b.in(t, "t")
		in.Prefix, in.Run = prefix, "p"+prefix
		d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
		if d.State != "dead" || lastCode(d) != "X_BLOB_KEY_INVALID" || d.Attempt != 1 || len(d.Steps) != 0 {
			t.Errorf("prefix %q: %s after %d attempts, %d steps: %s", prefix, d.State, d.Attempt, len(d.Steps), lastError(d))
		}
	}
	if objs, err := openBucket(t, b.bucket).List(context.Background(), ""); err != nil || len(objs) != 0 {
		t.Fatalf("%d objects written (%v)", len(objs), err)
	}
}

func TestSealedColumns(t *testing.T) {
	o := options()
	o.Columns, o.Sealed = []string{"id", "ssn"}, []string{"ssn"}
	_, err := exportrows.New(exportKey, o)
	if !errors.Is(err, errcode.JobDeclarationInvalid) || !strings.Contains(err.Error(), "column ssn is sealed") {
		t.Fatalf("declared with a sealed column: %v", err)
	}

	b := setup(t, `create table people(id int primary key, name text, ssn text); insert into people values (1, 'Ada', '078-05-1120')`)
	o.Columns = nil
	res := b.export(t, o, b.in(t, "people"))
	if got := partsText(t, res); len(got) != 1 || got[0] != "1,Ada" {
		t.Fatalf("sealed column exported: %q", got)
	}
	in := b.in(t, "people")
	in.Columns, in.Run = []string{"name", "ssn"}, "asked"
	if d, _ := run(t, b.pool, exportrows.MustNew(exportKey, o), in); lastCode(d) != "X_EXPORT_COLUMN_SEALED" || d.Attempt != 1 {
		t.Errorf("asked for at run time: %s %s", d.State, lastError(d))
	}
	o.Name, o.Sealed = "test.export.sealed-key", []string{"id"}
	in.Columns, in.Run = nil, "key"
	if d, _ := run(t, b.pool, exportrows.MustNew(exportKey, o), in); lastCode(d) != "X_EXPORT_COLUMN_SEALED" {
		t.Errorf("a sealed key: %s %s", d.State, lastError(d))
	}
}

// One declaration error names every fault.
func TestDeclarationNamesEveryFault(t *testing.T) {
	_, err := exportrows.New(nil, exportrows.Options[exportIn]{
		Format: "xml", Compression: "lz4", PageRows: -1, RowGroupRows: -2,
		Columns: []string{"a", "a", " "}, Sealed: []string{""},
	})
	if !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("%v", err)
	}
	for _, fault := range []string{
		"Name is empty", "the idempotency key function is nil", "Source is nil", "Sink (where the objects go) is nil",
		"Format xml is not", "Compression lz4 is not", "PageRows -1 is out of range", "RowGroupRows -2 is out of range",
		"Columns names a twice", "Columns has a blank column name", "Sealed has a blank column name",
	} {
		if !strings.Contains(err.Error(), fault) {
			t.Errorf("the error does not name %q: %v", fault, err)
		}
	}
}

func TestSourceFaultsAreTerminal(t *testing.T) {
	b := setup(t, `create table t(id int primary key)`)
	for name, in := range map[string]exportIn{
		"neither":     {},
		"both":        {Table: "t", Query: "select 1 as id", Key: []string{"id"}},
		"no key":      {Query: "select 1 as id"},
		"bad where":   {Table: "t", Where: "no_such_column = 1"},
		"bad query":   {Query: "select from nowhere", Key: []string{"id"}},
		"twice":       {Query: "select 1 as id, 2 as id", Key: []string{"id"}},
		"unknown col": {Table: "t", Columns: []string{"nope"}},
		"bad format":  {Table: "t", Format: "xml"},
	} {
		in.Bucket, in.Prefix, in.Run = b.bucket, "x", name
		d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
		if d.State != "dead" || d.Attempt != 1 || !strings.HasPrefix(lastCode(d), "X_") {
			t.Errorf("%s: %s after %d attempts: %s", name, d.State, d.Attempt, lastError(d))
		}
	}
}

func TestTableExportCheck(t *testing.T) {
	for to, code := range map[string]errcode.Code{
		"s3://bucket/../up": errcode.BlobKeyInvalid, "s3://bucket//abs": errcode.BlobKeyInvalid,
		"s3://bucket/a//b": errcode.BlobKeyInvalid, "": errcode.BlobURLInvalid, "s3:///nobucket": errcode.BlobURLInvalid,
		"s3://bucket/exports/?region=eu-west-1": "", "file:///tmp/out": "", "./out": "", "mem://m/p": "",
	} {
		err := exportrows.TableExport{From: pg.Relation{Name: "orders"}, To: to}.Check()
		if code == "" && err != nil || code != "" && !errors.Is(err, code) {
			t.Errorf("to %q: %v, want %s", to, err, code)
		}
	}
	if err := (exportrows.TableExport{To: "./out"}).Check(); !errors.Is(err, errcode.JobInputInvalid) {
		t.Errorf("no table: %v", err)
	}
}
