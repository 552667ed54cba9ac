package pgcatalog_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pg"
)

const salesDDL = `
create schema "Sales";
create domain "Sales".cents as bigint check (value >= 0);
create table "Sales"."Order Items" (
  "Order Id" bigint generated always as identity,
  line int not null,
  sku varchar(40) not null default 'none',
  price "Sales".cents,
  tags text[],
  total numeric(10,2) generated always as (price * 2) stored,
  primary key ("Order Id", line));
create unique index on "Sales"."Order Items" (sku);
create unique index on "Sales"."Order Items" (line) where line > 0;
create unique index on "Sales"."Order Items" (lower(sku));
create view "Sales".items_view as select line from "Sales"."Order Items";
create materialized view "Sales".empty_mv as select 1 as x with no data;
create sequence "Sales"."Seq"`

func setup(t *testing.T) pgx.Tx {
	t.Helper()
	tx := fixtures.Tx(t)
	if _, err := tx.Exec(context.Background(), salesDDL); err != nil {
		t.Fatal(err)
	}
	return tx
}

func TestLookupFindsWhatTheNameNames(t *testing.T) {
	tx := setup(t)
	ctx := context.Background()
	for name, kind := range map[string]pgcatalog.Kind{
		`"Sales"."Order Items"`: pgcatalog.Table, `"Sales".items_view`: pgcatalog.View,
		`"Sales".EMPTY_MV`: pgcatalog.MaterializedView, `"Sales"."Seq"`: pgcatalog.Sequence,
	} {
		c, found, err := pgcatalog.Lookup(ctx, tx, pg.MustParseRelation(name))
		if err != nil || !found || c.Kind != kind || c.OID == 0 || c.Populated != (kind != pgcatalog.MaterializedView) {
			t.Errorf("%s: %+v %v %v", name, c, found, err)
		}
	}
	for _, missing := range []pg.Relation{{Name: "Order Items"}, {Schema: "sales", Name: "Order Items"}, {Schema: "nope", Name: "x"}} {
		if _, found, err := pgcatalog.Lookup(ctx, tx, missing); found || err != nil {
			t.Errorf("%+v: found %v, %v", missing, found, err)
		}
	}
	if _, err := tx.Exec(ctx, `set local search_path = "Sales", public`); err != nil {
		t.Fatal(err)
	}
	if c, found, _ := pgcatalog.Lookup(ctx, tx, pg.Relation{Name: "Order Items"}); !found || c.Kind != pgcatalog.Table {
		t.Errorf("the search path does not find it: %+v", c)
	}
	long := pg.Relation{Name: strings.Repeat("t", 70)}
	if _, _, err := pgcatalog.Lookup(ctx, tx, long); !errors.Is(err, errcode.NameInvalid) {
		t.Errorf("a long name is looked up: %v", err)
	}
}

func TestColumnsAndKeys(t *testing.T) {
	tx := setup(t)
	ctx := context.Background()
	c, _, err := pgcatalog.Lookup(ctx, tx, pg.Relation{Schema: "Sales", Name: "Order Items"})
	if err != nil {
		t.Fatal(err)
	}
	cols, err := pgcatalog.Columns(ctx, tx, c.OID)
	if err != nil || len(cols) != 6 {
		t.Fatalf("%d columns, %v", len(cols), err)
	}
	byName := map[string]pgcatalog.Column{}
	for _, col := range cols {
		byName[col.Name] = col
	}
	id, sku, price, tags, total := byName["Order Id"], byName["sku"], byName["price"], byName["tags"], byName["total"]
	switch {
	case cols[0].Name != "Order Id" || !id.Identity || !id.NotNull || id.Type != "bigint" || id.TypeOID != 20:
		t.Errorf("id %+v", id)
	case sku.Type != "character varying(40)" || sku.Base != "character varying" || !sku.HasDefault || sku.Category != "S":
		t.Errorf("sku %+v", sku)
	case price.TypType != "d" || price.Domain != "bigint" || price.BaseTypeOID != 20 || price.TypeOID == 20:
		t.Errorf("price %+v", price)
	case tags.Category != "A" || tags.Elem != "text":
		t.Errorf("tags %+v", tags)
	case !total.Generated || !total.HasDefault || total.Type != "numeric(10,2)":
		t.Errorf("total %+v", total)
	}
	pk, err := pgcatalog.PrimaryKey(ctx, tx, c.OID)
	if err != nil || !slices.Equal(pk, []string{"Order Id", "line"}) {
		t.Errorf("primary key %q %v", pk, err)
	}
	uniques, err := pgcatalog.UniqueKeys(ctx, tx, c.OID)
	slices.SortFunc(uniques, slices.Compare)
	if err != nil || len(uniques) != 2 || !slices.Equal(uniques[0], []string{"Order Id", "line"}) || !slices.Equal(uniques[1], []string{"sku"}) {
		t.Errorf("unique keys %q %v (a partial or expression index is none)", uniques, err)
	}
	v, _, _ := pgcatalog.Lookup(ctx, tx, pg.Relation{Schema: "Sales", Name: "items_view"})
	all, err := pgcatalog.ColumnsOf(ctx, tx, []uint32{c.OID, v.OID})
	if err != nil || len(all[c.OID]) != 6 || len(all[v.OID]) != 1 {
		t.Errorf("columns of two: %d %d %v", len(all[c.OID]), len(all[v.OID]), err)
	}
}

func TestNames(t *testing.T) {
	if got := pgcatalog.QuoteList([]string{"id", `Order "Id"`}); got != `"id", "Order ""Id"""` {
		t.Errorf("%s", got)
	}
	long := strings.Repeat("é", 35)
	f := pgcatalog.LengthFaults("key column", "id", long, strings.Repeat("a", 63))
	if len(f) != 1 || !strings.Contains(f[0], "the key column name") || !strings.Contains(f[0], "70 bytes, over PostgreSQL's 63-byte limit") {
		t.Errorf("%q", f)
	}
	if got := pgcatalog.Fault(pg.CheckName("table", "")); got != "the table name is empty" {
		t.Errorf("%q", got)
	}
}

func TestStoredTable(t *testing.T) {
	for in, want := range map[string]pg.Relation{
		`{"schema":"Sales","table":"Order Items"}`: {Schema: "Sales", Name: "Order Items"},
		`{"table":"Orders","into":"x"}`:            {Name: "Orders"},
	} {
		if r, found, err := pgcatalog.StoredTable([]byte(in)); err != nil || !found || r != want {
			t.Errorf("%s: %+v %v %v", in, r, found, err)
		}
	}
	if _, found, err := pgcatalog.StoredTable([]byte(`{"into":"x"}`)); found || err != nil {
		t.Errorf("found %v, %v", found, err)
	}
}
