package pipecli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/internal/orders"
	"github.com/pipekit/pipe/pg"
)

// demoRows is how many orders the demo imports; two more rows are refused
// on purpose.
const demoRows = 20_000

// demoOrdersDDL drops what an earlier demo left (the demo's materialized
// view over demo_orders goes with the table) and makes the table again.
const demoOrdersDDL = `drop table if exists demo_orders cascade;
create table demo_orders(id uuid primary key, org_id uuid not null, total bigint not null, note text, created_at timestamptz not null)`

// demoImport writes an orders CSV with two bad rows into dir, imports it
// into demo_orders with pipe.import worked in this process, and answers the
// result.
func (a *app) demoImport(ctx context.Context, pool *pgxpool.Pool, dir string) (*importrows.Result, error) {
	path := filepath.Join(dir, "orders.csv")
	if err := writeDemoOrders(path); err != nil {
		return nil, err
	}
	if _, err := pool.Exec(ctx, demoOrdersDDL); err != nil {
		return nil, err
	}
	in := importrows.FileImport{Source: path, Into: pg.Relation{Name: "demo_orders"}, Key: []string{"id"},
		Limits: importrows.Limits{PageBytes: 512 << 10}}
	a.say("importing %s into demo_orders…\n", path)
	_, out, err := runHere(ctx, a, pool, importrows.TableJob(), in, nil)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// writeDemoOrders writes the orders with two rows a table would refuse: a
// total that is not a number and a timestamp that is not a time.
func writeDemoOrders(path string) error {
	var b bytes.Buffer
	if err := orders.Write(&b, demoRows, 11); err != nil {
		return err
	}
	b.WriteString("00000000-0000-4000-8000-00000000000a,00000000-0000-4000-8000-00000000000b,twelve,bad total,2026-01-01T00:00:00Z\n")
	b.WriteString("00000000-0000-4000-8000-00000000000c,00000000-0000-4000-8000-00000000000d,12,bad time,soon\n")
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// narrateImport prints what the import did.
func (a *app) narrateImport(r *importrows.Result, dir string) {
	fmt.Fprintf(a.stdout, "imported %d rows into demo_orders in %d pages (%d bytes); %d rows refused.\n", r.Rows, r.Pages, r.Bytes, r.Refused)
	fmt.Fprintf(a.stdout, "The refused rows are reported, without their values, under %s\n"+
		"(the demo removes %s, the CSV and the report in it, when it ends)\n\n",
		filepath.Join(dir, filepath.FromSlash(r.ErrorPrefix)), dir)
}
