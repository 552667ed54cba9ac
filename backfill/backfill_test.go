package backfill_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
)

func TestASQLPassChangesEveryRowOnce(t *testing.T) {
	pool := setup(t, 2500)
	d, res := fixtures.Run(t, pool, mustNew(t, "test.fill", fillOptions()), Req{Label: "a"})
	if d.State != "done" {
		t.Fatalf("the pass is %s: %+v", d.State, d.LastError)
	}
	assertEachOnce(t, pool, 2500)
	if res.Rows != 2500 || res.Cursor != "2500" {
		t.Fatalf("the result is %+v", res)
	}
	p, err := backfill.Show(context.Background(), pool, d.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if p.State != "done" || p.Rows != 2500 || p.Total == nil || *p.Total != 2500 || p.Batches < 2 {
		t.Fatalf("the ledger holds %+v", p)
	}
}

func TestAGoPassIsHandedEachRowOnceInItsTransaction(t *testing.T) {
	pool := setup(t, 730)
	o := fillOptions()
	o.SQL = ""
	o.Columns = []string{"id", "total"}
	o.Handle = func(ctx context.Context, tx pgx.Tx, b backfill.Batch) error {
		for _, r := range b.Rows {
			if _, err := tx.Exec(ctx, `update orders set total_cents = round($2::numeric * 100) where id = $1`, r[0], r[1]); err != nil {
				return err
			}
		}
		return nil
	}
	d, res := fixtures.Run(t, pool, mustNew(t, "test.handle", o), Req{Label: "a"})
	if d.State != "done" || res.Rows != 730 {
		t.Fatalf("the pass is %s with %+v: %+v", d.State, res, d.LastError)
	}
	assertEachOnce(t, pool, 730)
}

func TestAQueryPassWalksItsDeclaredKey(t *testing.T) {
	pool := setup(t, 1000)
	o := fillOptions()
	o.Table = pg.Relation{}
	o.Query = `select id from orders where id % 2 = 0`
	o.Key = "id"
	o.SQL = `update orders set total_cents = round(total * 100) where id between $1 and $2 and id % 2 = 0`
	d, res := fixtures.Run(t, pool, mustNew(t, "test.query", o), Req{Label: "a"})
	if d.State != "done" || res.Rows != 500 {
		t.Fatalf("the pass is %s with %+v: %+v", d.State, res, d.LastError)
	}
	if n := scalar[int64](t, pool, `select count(*) from touches where n = 1 and id % 2 = 0`); n != 500 {
		t.Fatalf("%d even rows were updated once", n)
	}
	if n := scalar[int64](t, pool, `select count(*) from touches where id % 2 = 1`); n != 0 {
		t.Fatalf("%d odd rows were updated", n)
	}
}

func TestArgsFollowTheRange(t *testing.T) {
	pool := setup(t, 300)
	o := fillOptions()
	o.SQL = `update orders set total_cents = $3 where id between $1 and $2`
	o.Args = func(Req) []any { return []any{7} }
	d, _ := fixtures.Run(t, pool, mustNew(t, "test.args", o), Req{Label: "a"})
	if d.State != "done" {
		t.Fatalf("the pass is %s: %+v", d.State, d.LastError)
	}
	if n := scalar[int64](t, pool, `select count(*) from orders where total_cents = 7`); n != 300 {
		t.Fatalf("%d rows hold the argument", n)
	}
}
