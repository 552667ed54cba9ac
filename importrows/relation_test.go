package importrows_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
)

const orderItemsDDL = `create schema "Sales";
create table "Sales"."Order Items" ("Order Id" int primary key, "Line Note" text not null);
create table "order items" (id int)` // what the name would be if it were folded

// A table named "Order Items" in schema Sales is imported into, by the
// stock job whose input names it as SQL does; and a run enqueued before
// Into, its input stored with the exact names under schema and table,
// imports into the same table.
func TestImportIntoOrderItemsOfSales(t *testing.T) {
	b := setup(t, orderItemsDDL)
	ctx := context.Background()
	job := importrows.TableJob()
	first := b.put(t, "a.csv", []byte("Order Id,Line Note\n1,one\n2,two\n"))
	in := importrows.FileImport{Source: first.Bucket + "/" + first.Key, Into: pg.MustParseRelation(`"Sales"."Order Items"`), Key: []string{"Order Id"}}
	if err := in.Check(); err != nil {
		t.Fatal(err)
	}
	d, out := fixtures.Run(t, b.pool, job, in)
	if d.State != "done" || out.Rows != 2 {
		t.Fatalf("%s: %+v %+v", d.State, out, d.LastError)
	}
	second := b.put(t, "b.csv", []byte("Order Id,Line Note\n2,deux\n3,trois\n"))
	// The run is enqueued and given its old-form input in one transaction,
	// so no worker left by run above can claim it in between.
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	res, err := job.Enqueue(ctx, tx, importrows.FileImport{Source: second.Bucket + "/" + second.Key, Into: pg.Relation{Name: "placeholder"}})
	if err != nil {
		t.Fatal(err)
	}
	legacy, _ := json.Marshal(map[string]any{"source": second.Bucket + "/" + second.Key, "schema": "Sales", "table": "Order Items",
		"key": []string{"Order Id"}, "limits": map[string]any{}})
	if _, err := tx.Exec(ctx, `update pipe.runs set input = $1 where id = $2`, legacy, res.ID); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, b.pool, job)
	if d := fixtures.AwaitSettled(t, b.pool, res.ID); d.State != "done" {
		t.Fatalf("the stored input of the form before Into: %s %+v", d.State, d.LastError)
	}
	if n := count(t, b, `select count(*) from "Sales"."Order Items"`); n != 3 {
		t.Fatalf("%d rows in Sales.Order Items", n)
	}
	if n := count(t, b, `select count(*) from "Sales"."Order Items" where "Line Note" = 'deux'`); n != 1 {
		t.Fatal("the upsert did not update row 2")
	}
	if n := count(t, b, `select count(*) from "order items"`); n != 0 {
		t.Fatalf("%d rows in the folded name's table", n)
	}
}
