package pgtail_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
)

type item struct {
	Note string `db:"Line Note"`
}

// A table named "Order Items" in schema Sales is tailed, its identity
// column "Order Id" found with the sequence it owns ("Sales"."Order
// Items_Order Id_seq"); a sequence named for it is found as well.
func TestTailOrderItemsOfSales(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `create schema "Sales";
		create table "Sales"."Order Items" ("Order Id" bigint generated always as identity primary key, "Line Note" text);
		insert into "Sales"."Order Items" ("Line Note") values ('one'), ('two'), ('three')`); err != nil {
		t.Fatal(err)
	}
	for _, o := range []pgtail.Options[item]{
		{Table: pg.MustParseRelation(`"Sales"."Order Items"`), ID: "Order Id", Columns: []string{"Line Note"}, Poll: 5 * time.Millisecond},
		{Table: pg.Relation{Schema: "Sales", Name: "Order Items"}, ID: "Order Id", Columns: []string{"Line Note"},
			Sequence: pg.MustParseRelation(`"Sales"."Order Items_Order Id_seq"`), Poll: 5 * time.Millisecond},
	} {
		f, err := pgtail.MustNew(pool, o).Open(ctx, "k", 1)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.Read(ctx, 10, 5*time.Second)
		_ = f.Close()
		if err != nil || len(rows) != 2 || rows[0].ID != 2 || rows[1].Value.Note != "three" {
			t.Fatalf("read %+v, %v", rows, err)
		}
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n, err := pgtail.MustNew(pool, o).Lag(ctx, tx, "k", 0)
		_ = tx.Rollback(ctx)
		if err != nil || n != 3 {
			t.Fatalf("lag %d, %v", n, err)
		}
	}
	folded := pgtail.MustNew(pool, pgtail.Options[item]{Table: pg.MustParseRelation(`Sales."Order Items"`), ID: "Order Id"})
	if _, err := folded.Open(ctx, "k", 0); !errors.Is(err, errcode.ConsumerSourceInvalid) {
		t.Fatalf("schema sales (folded) holds no such table: %v", err)
	}
	long := pg.Relation{Name: strings.Repeat("t", 64)}
	if _, err := pgtail.New(pool, pgtail.Options[item]{Table: long}); !errors.Is(err, errcode.ConsumerInvalid) || !strings.Contains(err.Error(), "64 bytes") {
		t.Fatalf("a long name: %v", err)
	}
}
