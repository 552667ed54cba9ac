package exportrows_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// secret is the value the redaction tests plant in a row: it must not reach
// anything pipe stores.
const secret = "zq7secretvalue9x"

// requireRefused fails the test unless the run died at once with
// X_EXPORT_SOURCE_INVALID naming the SQLSTATE, quoting no row, having
// written no object.
func requireRefused(t *testing.T, b *bundle, d *pipeline.RunDetail, sqlstate string) {
	t.Helper()
	if d.State != "dead" || lastCode(d) != "X_EXPORT_SOURCE_INVALID" || d.Attempt != 1 {
		t.Fatalf("%s on attempt %d: %s; want dead at once with X_EXPORT_SOURCE_INVALID", d.State, d.Attempt, lastError(d))
	}
	if !strings.Contains(d.LastError.Message, "SQLSTATE "+sqlstate) {
		t.Fatalf("message %q does not name SQLSTATE %s", d.LastError.Message, sqlstate)
	}
	if where := fixtures.Holding(t, b.pool, secret); len(where) > 0 {
		t.Fatalf("the row's value is stored in %v", where)
	}
	if objs, err := openBucket(t, b.bucket).List(context.Background(), ""); err != nil || len(objs) != 0 {
		t.Fatalf("%d objects written (%v)", len(objs), err)
	}
}

// A view whose cast fails on a row quotes the value in the server's
// message (invalid input syntax for type integer: "..."): the run is
// refused at once, naming the SQLSTATE only.
func TestExportOfAViewWhoseCastFailsQuotesNoRow(t *testing.T) {
	b := setup(t, `create table raw(id int primary key, v text);
		insert into raw values (1, '7'), (2, '`+secret+`');
		create view cooked as select id, v::int as n from raw`)
	in := b.in(t, "cooked")
	in.Key = []string{"id"}
	d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
	requireRefused(t, b, d, "22P02")
}

// A Where filter the server refuses on a row (here a division by zero)
// would fail the same way on every retry: it is terminal.
func TestExportWhereRefusedOnARowIsTerminal(t *testing.T) {
	b := setup(t, `create table t(id int primary key, d int, note text); insert into t values (1, 1, 'a'), (2, 0, '`+secret+`')`)
	in := b.in(t, "t")
	in.Where = "10 / d > 1"
	d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
	requireRefused(t, b, d, "22012")
}

// A filter that writes — nextval() — is refused in both orders: every read
// of an export is read-only, so the sequence never moves.
func TestExportWhereThatWritesIsRefused(t *testing.T) {
	for _, order := range []string{"key", "snapshot"} {
		t.Run(order, func(t *testing.T) {
			b := setup(t, `create sequence s; create table t(id int primary key); insert into t values (1), (2)`)
			in := b.in(t, "t")
			in.Where, in.Order = "nextval('s') > 0", exportrows.Order(order)
			d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
			requireRefused(t, b, d, "25006")
			var last int64
			var called bool
			if err := b.pool.QueryRow(context.Background(), `select last_value, is_called from s`).Scan(&last, &called); err != nil || called {
				t.Fatalf("the sequence moved to %d (%v)", last, err)
			}
		})
	}
}

// A filter that does not parse is refused before any page.
func TestExportWhereThatDoesNotParseIsRefusedAtPlan(t *testing.T) {
	b := setup(t, `create table t(id int primary key); insert into t values (1)`)
	in := b.in(t, "t")
	in.Where = "id = = 1"
	d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
	requireRefused(t, b, d, "42601")
	for _, s := range d.Steps {
		if s.Name != "plan" {
			t.Fatalf("step %s ran after the plan failed", s.Name)
		}
	}
}
