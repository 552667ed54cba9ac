package pipecli_test

import (
	"strings"
	"testing"
)

// --into and an export's table over 63 bytes are refused with a code
// saying so: PostgreSQL would cut the name, with only a NOTICE, to the
// table its first 63 bytes name, and that table is left alone.
func TestLongNamesAreRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	short := strings.Repeat("t", 63)
	b.exec(t, `create table `+short+`(id int primary key); insert into `+short+` values (1)`)
	long := short + "_archiv"
	path := writeFile(t, "p.csv", "id\n2\n")
	r := b.pipe(t, "import", path, "--into", long, "--wait")
	wantError(t, r, 1, "X_IMPORT_TABLE_INVALID")
	if !strings.Contains(r.stderr, "70 bytes, over PostgreSQL's 63-byte limit") {
		t.Fatalf("stderr:\n%s", r.stderr)
	}
	r = b.pipe(t, "import", path, "--into", "t", "--columns", "id,"+long)
	wantError(t, r, 1, "X_IMPORT_TABLE_INVALID")
	r = b.pipe(t, "export", long, "--to", t.TempDir(), "--wait")
	wantError(t, r, 1, "X_EXPORT_SOURCE_INVALID")
	r = b.pipe(t, "export", "t", "--key", long, "--to", t.TempDir())
	wantError(t, r, 1, "X_EXPORT_SOURCE_INVALID")
	var n int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from `+short).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the table the cut name names holds %d rows (%v)", n, err)
	}
}

// TABLE, --into, VIEW and --key are read as SQL writes names: "Order
// Items" in schema Sales is imported into, exported and its view
// refreshed; a bare name is folded to lower case, so Sales.Order_Items
// names sales.order_items; a name SQL would not read is the command's code.
func TestNamesAreReadAsSQLWritesThem(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create schema "Sales"; create schema sales;
		create table "Sales"."Order Items" ("Order Id" int primary key, "Line Note" text);
		create table sales.order_items (id int primary key);
		create materialized view "Sales"."Notes" as select "Order Id", "Line Note" from "Sales"."Order Items";
		create unique index on "Sales"."Notes" ("Order Id")`)
	path := writeFile(t, "items.csv", "Order Id,Line Note\n1,one\n2,two\n1,uno\n")
	wantOK(t, b.pipe(t, "import", path, "--into", `"Sales"."Order Items"`, "--key", `"Order Id"`, "--wait"))
	wantOK(t, b.pipe(t, "import", writeFile(t, "ids.csv", "id\n7\n"), "--into", "Sales.Order_Items", "--key", "ID", "--wait"))
	var n int
	if err := b.pool.QueryRow(t.Context(), `select (select count(*) from "Sales"."Order Items" where "Line Note" <> 'one') +
		(select count(*) from sales.order_items)`).Scan(&n); err != nil || n != 3 {
		t.Fatalf("%d rows, %v", n, err)
	}
	r := b.pipe(t, "export", `"Sales"."Order Items"`, "--key", `"Order Id"`, "--to", t.TempDir(), "--wait", "--json")
	wantOK(t, r)
	if !strings.Contains(r.stdout, `"rows": 2`) {
		t.Fatalf("export: %s", r.stdout)
	}
	r = b.pipe(t, "export", "SALES.Order_Items", "--key", "ID", "--to", t.TempDir(), "--wait", "--json") // sales.order_items
	wantOK(t, r)
	if !strings.Contains(r.stdout, `"rows": 1`) {
		t.Fatalf("export of the folded name: %s", r.stdout)
	}
	wantOK(t, b.pipe(t, "views", "refresh", `"Sales"."Notes"`, "--concurrently", "--wait"))
	wantError(t, b.pipe(t, "import", path, "--into", `Sales."Order Items"`, "--wait"), 1, "X_IMPORT_TABLE_INVALID") // sales."Order Items"
	wantError(t, b.pipe(t, "import", path, "--into", "Sales.Order Items"), 1, "X_IMPORT_TABLE_INVALID")
	wantError(t, b.pipe(t, "import", path, "--into", "t", "--key", "Order Id"), 1, "X_IMPORT_TABLE_INVALID")
	wantError(t, b.pipe(t, "export", "a.b.c", "--to", t.TempDir()), 1, "X_EXPORT_SOURCE_INVALID")
	wantError(t, b.pipe(t, "views", "refresh", `"`), 1, "X_JOB_REFRESH_VIEW_INVALID")
}
