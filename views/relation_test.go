package views_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/views"
)

// A materialized view "Totals By Day" in schema Sales is refreshed by a
// declaration and by the stock job, each naming it as SQL does; a stock
// run enqueued before "matview", its input stored with the view under
// "view" as Sales.Totals By Day, refreshes the same view.
func TestRefreshTotalsByDayOfSales(t *testing.T) {
	pool := setup(t, `create schema "Sales";
		create table "Sales"."Order Items" (day date, total int);
		create materialized view "Sales"."Totals By Day" as select day, sum(total) as total from "Sales"."Order Items" group by day;
		create unique index on "Sales"."Totals By Day" (day);
		insert into "Sales"."Order Items" values ('2024-01-01', 3), ('2024-01-02', 4)`)
	ctx := context.Background()
	view := pg.MustParseRelation(`"Sales"."Totals By Day"`)
	rows := func() (n int) {
		_ = pool.QueryRow(ctx, `select count(*) from "Sales"."Totals By Day"`).Scan(&n)
		return n
	}
	d, res := fixtures.Run(t, pool, views.MustRefresh(views.Options{Name: "refresh-sales", View: view, Concurrently: true}), views.Request{})
	if d.State != "done" || res.View != `"Sales"."Totals By Day"` || !res.Concurrently || rows() != 2 {
		t.Fatalf("%s %+v, %d rows", d.State, res, rows())
	}
	if _, err := pool.Exec(ctx, `insert into "Sales"."Order Items" values ('2024-01-03', 5)`); err != nil {
		t.Fatal(err)
	}
	job := views.RefreshJob()
	queued, err := job.Enqueue(ctx, pool, views.Target{View: pg.Relation{Name: "placeholder"}})
	if err != nil {
		t.Fatal(err)
	}
	legacy, _ := json.Marshal(map[string]any{"view": "Sales.Totals By Day", "concurrently": true})
	if _, err := pool.Exec(ctx, `update pipe.runs set input = $1 where id = $2`, legacy, queued.ID); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, job)
	if d := fixtures.AwaitSettled(t, pool, queued.ID); d.State != "done" || rows() != 3 {
		t.Fatalf("the stored input of the form before matview: %s %v, %d rows", d.State, d.LastError, rows())
	}
}

func TestTargetJSON(t *testing.T) {
	raw, err := json.Marshal(views.Target{View: pg.Relation{Schema: "Sales", Name: "Totals By Day"}, Concurrently: true})
	if err != nil || string(raw) != `{"matview":"\"Sales\".\"Totals By Day\"","concurrently":true}` {
		t.Fatalf("%s %v", raw, err)
	}
	for in, want := range map[string]pg.Relation{
		string(raw):                      {Schema: "Sales", Name: "Totals By Day"},
		`{"matview":"Sales.Totals"}`:     {Schema: "sales", Name: "totals"},
		`{"view":"Sales.Totals By Day"}`: {Schema: "Sales", Name: "Totals By Day"},
		`{"view":"Totals"}`:              {Name: "Totals"},
	} {
		var tg views.Target
		if err := json.Unmarshal([]byte(in), &tg); err != nil || tg.View != want {
			t.Errorf("%s: %+v %v", in, tg.View, err)
		}
	}
	var tg views.Target
	if err := json.Unmarshal([]byte(`{"matview":"a","view":"b"}`), &tg); err == nil {
		t.Error("a view named twice is read")
	}
}
