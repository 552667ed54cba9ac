package exportrows_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
)

const orderItemsDDL = `create schema "Sales";
create table "Sales"."Order Items" ("Order Id" int primary key, "Line Note" text);
insert into "Sales"."Order Items" select i, 'note ' || i from generate_series(1, 5) i;
create table "order items" (id int primary key)` // what the name would be if it were folded

// A table named "Order Items" in schema Sales is exported by the stock job
// whose input names it as SQL does, the manifest naming it that way; and a
// run enqueued before From, its input stored with the exact names under
// schema and table, exports the same table.
func TestExportOrderItemsOfSales(t *testing.T) {
	b := setup(t, orderItemsDDL)
	ctx := context.Background()
	job := exportrows.TableJob()
	in := exportrows.TableExport{From: pg.MustParseRelation(`"Sales"."Order Items"`), To: b.bucket, Format: exportrows.CSV, PageRows: 2}
	if err := in.Check(); err != nil {
		t.Fatal(err)
	}
	d, res := run(t, b.pool, job, in)
	if d.State != "done" || res.Rows != 5 || res.Parts != 3 {
		t.Fatalf("%s: %+v %s", d.State, res, lastError(d))
	}
	_, m := manifestOf(t, res)
	if m.Name != `"Sales"."Order Items"` || strings.Join(m.Key, ",") != "Order Id" {
		t.Fatalf("manifest names %s by %q", m.Name, m.Key)
	}
	// The run is enqueued and given its old-form input in one transaction,
	// so no worker left by run above can claim it in between.
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	queued, err := job.Enqueue(ctx, tx, exportrows.TableExport{From: pg.Relation{Name: "placeholder"}, To: b.bucket})
	if err != nil {
		t.Fatal(err)
	}
	legacy, _ := json.Marshal(map[string]any{"schema": "Sales", "table": "Order Items", "to": b.bucket, "where": `"Order Id" > 3`})
	if _, err := tx.Exec(ctx, `update pipe.runs set input = $1 where id = $2`, legacy, queued.ID); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, b.pool, job)
	d = fixtures.AwaitSettled(t, b.pool, queued.ID)
	var out exportrows.Result
	if err := json.Unmarshal(d.Result, &out); d.State != "done" || err != nil || out.Rows != 2 {
		t.Fatalf("the stored input of the form before From: %s %+v %s", d.State, out, lastError(d))
	}
}
