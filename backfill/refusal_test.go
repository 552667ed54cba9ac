package backfill_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

func TestADeclarationThatCannotRunIsRefused(t *testing.T) {
	cases := map[string]func(*backfill.Options[Req]){
		"two statements":      func(o *backfill.Options[Req]) { o.SQL = fill + "; delete from orders where id between $1 and $2" },
		"a select":            func(o *backfill.Options[Req]) { o.SQL = "select * from orders where id between $1 and $2" },
		"an insert of values": func(o *backfill.Options[Req]) { o.SQL = "insert into orders values ($1, $2)" },
		"no range":            func(o *backfill.Options[Req]) { o.SQL = "update orders set total_cents = 0 where id > $1" },
		"both forms": func(o *backfill.Options[Req]) {
			o.Handle = func(context.Context, pgxTx, backfill.Batch) error { return nil }
		},
		"no source":              func(o *backfill.Options[Req]) { o.Table = pg.Relation{} },
		"a query without a key":  func(o *backfill.Options[Req]) { o.Table, o.Query = pg.Relation{}, "select id from orders" },
		"min above max":          func(o *backfill.Options[Req]) { o.MinBatch, o.MaxBatch = 10, 5 },
		"a negative rate":        func(o *backfill.Options[Req]) { o.Rate = -1 },
		"a range in a comment":   func(o *backfill.Options[Req]) { o.SQL = "update orders set total_cents = 0 -- $1 $2" },
		"a range in a string":    func(o *backfill.Options[Req]) { o.SQL = "update orders set total_cents = 0 where '$1' < '$2'" },
		"a statement after text": func(o *backfill.Options[Req]) { o.SQL = fill + "; select ';'" },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			o := fillOptions()
			edit(&o)
			_, err := backfill.New("test.bad", reqKey, o)
			if !errors.Is(err, errcode.BackfillInvalid) {
				t.Fatalf("New answered %v", err)
			}
		})
	}
}

func TestAStatementInAStringOrCommentIsOneStatement(t *testing.T) {
	o := fillOptions()
	o.SQL = "update orders set note = 'a; b' /* ; */ where id between $1 and $2 -- ;\n;"
	if _, err := backfill.New("test.ok", reqKey, o); err != nil {
		t.Fatal(err)
	}
}

func TestTheCatalogRefusesWhatTheTableCannotDo(t *testing.T) {
	pool := setup(t, 10)
	exec(t, pool, `create table nokey (a int, b int); create table nullkey (a int unique, b int)`)
	cases := map[string]func(*backfill.Options[Req]){
		"no table": func(o *backfill.Options[Req]) { o.Table = pg.Relation{Name: "nope"} },
		"no primary key": func(o *backfill.Options[Req]) {
			o.Table, o.SQL = pg.Relation{Name: "nokey"}, "update nokey set b = 1 where a between $1 and $2"
		},
		"a nullable key": func(o *backfill.Options[Req]) {
			o.Table, o.Key, o.SQL = pg.Relation{Name: "nullkey"}, "a", "update nullkey set b = 1 where a between $1 and $2"
		},
		"an unknown key":    func(o *backfill.Options[Req]) { o.Key = "nope" },
		"a key not unique":  func(o *backfill.Options[Req]) { o.Key = "total" },
		"an unknown column": func(o *backfill.Options[Req]) { o.SQL = "update orders set nope = 1 where id between $1 and $2" },
		"an unknown table":  func(o *backfill.Options[Req]) { o.SQL = "update nope set a = 1 where id between $1 and $2" },
		"a query lacking its key": func(o *backfill.Options[Req]) {
			o.Table, o.Query, o.Key = pg.Relation{}, "select total from orders", "id"
		},
		"an unknown column to hand": func(o *backfill.Options[Req]) {
			o.SQL, o.Columns = "", []string{"nope"}
			o.Handle = func(context.Context, pgxTx, backfill.Batch) error { return nil }
		},
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			o := fillOptions()
			edit(&o)
			reg, err := pipeline.NewRegistry(mustNew(t, "test.bad", o))
			if err != nil {
				t.Fatal(err)
			}
			err = reg.Verify(context.Background(), pool)
			if !errors.Is(err, errcode.BackfillInvalid) {
				t.Fatalf("Verify answered %v", err)
			}
		})
	}
}

func TestAFailingBatchDeadLettersWithItsCursorAndRetryResumes(t *testing.T) {
	pool := setup(t, 1000)
	// Row 650 cannot take its cents until the check is dropped.
	exec(t, pool, `alter table orders add constraint sane check (total_cents is null or total_cents <> 650)`)
	o := fillOptions()
	o.MaxBatch = 100 // batches end at each hundred
	job := mustNew(t, "test.fill", o)
	d, _ := fixtures.Run(t, pool, job, Req{Label: "a"})
	if d.State != "dead" {
		t.Fatalf("the pass is %s", d.State)
	}
	if strings.Contains(d.LastError.Message, "650 ") {
		t.Fatalf("the error quotes a value: %s", d.LastError.Message)
	}
	p, err := backfill.Show(context.Background(), pool, d.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if p.State != "failed" || p.Cursor == nil || *p.Cursor != "600" || p.LastError == nil || *p.LastError != string(errcode.PostgresRefused) {
		t.Fatalf("the ledger holds %+v", p)
	}
	exec(t, pool, `alter table orders drop constraint sane`)
	if err := pipeline.NewAdmin(pool).Requeue(context.Background(), d.ID); err != nil {
		t.Fatal(err)
	}
	if d := fixtures.AwaitSettled(t, pool, d.ID); d.State != "done" {
		t.Fatalf("the retried pass is %s", d.State)
	}
	assertEachOnce(t, pool, 1000)
}

type pgxTx = pgx.Tx
