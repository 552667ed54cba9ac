package rollup_test

import (
	"context"
	"testing"
	"time"

	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
)

// A table named "Order Items" in schema Sales is rolled up into "Items Per
// Day" beside it, both named as SQL writes them; the catalog check finds
// them by those names.
func TestRollupOfOrderItemsOfSales(t *testing.T) {
	pool := setup(t, `create schema "Sales";
		create table "Sales"."Order Items" ("Order Id" int, "Line Total" int not null, "Paid At" timestamptz not null);
		create table "Sales"."Items Per Day" ("Day" timestamptz primary key, "Items" bigint, "Total" bigint);
		insert into "Sales"."Order Items" values (1, 10, now()), (1, 20, now()), (2, 5, now())`)
	job := rollup.MustNew(rollup.WindowKey, rollup.Options[rollup.Request]{
		Name:     "test.items-daily",
		Into:     pg.MustParseRelation(`"Sales"."Items Per Day"`),
		Key:      []string{"Day"},
		Bucket:   rollup.Bucket{Unit: rollup.Day, Zone: "UTC", Column: "Day"},
		Lookback: time.Hour,
		Source: &rollup.Source{Table: pg.MustParseRelation(`"Sales"."Order Items"`), Time: "Paid At",
			Aggregates: []rollup.Aggregate{{Func: rollup.Count, Into: "Items"}, {Func: rollup.Sum, Column: "Line Total", Into: "Total"}}},
		Job: pipeline.JobOptions[rollup.Request, rollup.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	})
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Verify(context.Background(), pool); err != nil {
		t.Fatalf("verify: %v", err)
	}
	if res := runDone(t, pool, job, rollup.Request{}); res.Rows != 3 || res.Buckets != 1 {
		t.Fatalf("%+v", res)
	}
	var items, total int64
	if err := pool.QueryRow(context.Background(), `select "Items", "Total" from "Sales"."Items Per Day"`).Scan(&items, &total); err != nil || items != 3 || total != 35 {
		t.Fatalf("%d items, %d total, %v", items, total, err)
	}
}
