package importrows_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// secret is the value the redaction tests plant in a row: it must not reach
// anything pipe stores.
const secret = "zq7secretvalue9x"

// requireRedacted fails the test when the run's error or anything in the
// pipe schema quotes the secret.
func requireRedacted(t *testing.T, b *bundle, d *pipeline.RunDetail) {
	t.Helper()
	if d.LastError != nil && strings.Contains(d.LastError.Message+d.LastError.Fix, secret) {
		t.Fatalf("the run's error quotes the row: %+v", d.LastError)
	}
	if where := fixtures.Holding(t, b.pool, secret); len(where) > 0 {
		t.Fatalf("the row's value is stored in %v", where)
	}
}

// A trigger that RAISEs with the row's value refuses the page: the run
// fails at once with X_IMPORT_WRITE_REFUSED naming the SQLSTATE and the
// table, never the RAISE's message, and no row is written.
func TestImportTriggerRaiseIsCodedWithoutTheRow(t *testing.T) {
	for name, ddl := range map[string]string{
		"before insert": `create trigger refuse before insert on t for each row execute function refuse()`,
		"deferred":      `create constraint trigger refuse after insert on t deferrable initially deferred for each row execute function refuse()`,
	} {
		t.Run(name, func(t *testing.T) {
			b := setup(t, `create table t(id int primary key, v text);
				create function refuse() returns trigger language plpgsql as $$
				begin raise exception 'refusing row %', new.v; end $$;`+ddl)
			d, _ := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("t")), b.put(t, "t.csv", []byte("id,v\n1,"+secret+"\n")))
			if d.State != "dead" || lastCode(d) != "X_IMPORT_WRITE_REFUSED" || d.Attempt != 1 {
				t.Fatalf("%s on attempt %d: %+v; want dead at once with X_IMPORT_WRITE_REFUSED", d.State, d.Attempt, d.LastError)
			}
			if !strings.Contains(d.LastError.Message, "SQLSTATE P0001") {
				t.Fatalf("message %q names no SQLSTATE", d.LastError.Message)
			}
			requireRedacted(t, b, d)
			if n := count(t, b, `select count(*) from t`); n != 0 {
				t.Fatalf("%d rows written", n)
			}
		})
	}
}

// A cast the server refuses inside a trigger quotes the value in its
// message (invalid input syntax for type integer: "..."): coded, it quotes
// nothing.
func TestImportServerRefusalsNeverQuoteTheRow(t *testing.T) {
	b := setup(t, `create table t(id int primary key, v text);
		create function cast_v() returns trigger language plpgsql as $$
		begin perform new.v::int; return new; end $$;
		create trigger cast_v before insert on t for each row execute function cast_v()`)
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("t", "id")), b.put(t, "t.csv", []byte("id,v\n1,"+secret+"\n")))
	if d.State != "dead" || lastCode(d) != "X_IMPORT_WRITE_REFUSED" || !strings.Contains(d.LastError.Message, "SQLSTATE 22P02") {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	requireRedacted(t, b, d)
}

// A CSV file without a header has its first row read as one: the mismatch
// names the table's missing columns, and the unknown ones by position.
func TestImportHeaderlessFileIsRefusedWithoutItsFirstRow(t *testing.T) {
	b := setup(t, `create table t(id int primary key, v text not null)`)
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("t")), b.put(t, "t.csv", []byte("1,"+secret+"\n2,b\n")))
	if d.State != "dead" || lastCode(d) != "X_IMPORT_HEADER_MISMATCH" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	if msg := d.LastError.Message; !strings.Contains(msg, "missing id, v") || !strings.Contains(msg, "columns 1 and 2") {
		t.Fatalf("message %q", msg)
	}
	requireRedacted(t, b, d)
}
