package exportrows_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// OrgExport is the input of the example export: one organisation's orders.
type OrgExport struct {
	OrgID string `json:"orgId"`
	Day   string `json:"day"`
}

// An export is declared once and enqueued like any job: here in the
// caller's transaction, so a rollback means it never existed. A worker runs
// it; its result counts what it wrote and names the manifest, written last.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	if _, err := pool.Exec(ctx, `create table orders (id int primary key, org_id text not null,
			created_at timestamptz not null, total numeric not null, card_token text);
		insert into orders values (1, 'org-42', '2026-12-01 09:00Z', 12.50, 'tok_1'),
			(2, 'org-7', '2026-12-01 10:00Z', 8.00, 'tok_2'), (3, 'org-42', '2026-12-01 11:00Z', 3.20, 'tok_3')`); err != nil {
		log.Fatal(err)
	}
	exportOrders := exportrows.MustNew(func(in OrgExport) string { return in.OrgID + "/" + in.Day }, exportrows.Options[OrgExport]{
		Name: "orders.export",
		Source: func(in OrgExport) exportrows.Source {
			return exportrows.Source{Table: pg.Relation{Name: "orders"}, Where: "org_id = $1 and created_at::date = $2", Args: []any{in.OrgID, in.Day}}
		},
		Sink: func(in OrgExport) exportrows.Sink {
			return exportrows.Sink{Bucket: "mem://exports", Prefix: "orders/" + in.OrgID} // s3://exports?region=eu-west-1, ...
		},
		Format: exportrows.Parquet,
		Sealed: []string{"card_token"},
		Job:    pipeline.JobOptions[OrgExport, exportrows.Result]{Tenant: func(in OrgExport) string { return in.OrgID }},
	})

	tx, err := pool.Begin(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	res, err := exportOrders.Enqueue(ctx, tx, OrgExport{OrgID: "org-42", Day: "2026-12-01"})
	if err != nil {
		log.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil { // the commit is the enqueue
		log.Fatal(err)
	}

	state, result := work(ctx, pool, exportOrders, res.ID)
	fmt.Println(state, result.Rows, "rows in", result.Parts, "part")
	// Output: done 2 rows in 1 part
}

// A declaration is checked whole: one error names every fault.
func ExampleNew() {
	_, err := exportrows.New(nil, exportrows.Options[OrgExport]{
		Name:    "orders.export",
		Format:  "xlsx",
		Columns: []string{"id", "card_token"},
		Sealed:  []string{"card_token"},
	})
	fmt.Println(err)
	// Output: X_JOB_DECLARATION_INVALID: export orders.export: the idempotency key function is nil; Source is nil; Sink (where the objects go) is nil; Format xlsx is not csv, ndjson or parquet; column card_token is sealed: it is never exported
}

// The stock job's input is checked before anything is read or written: a
// prefix that could leave its bucket is refused.
func ExampleTableExport_Check() {
	in := exportrows.TableExport{From: pg.Relation{Name: "orders"}, To: "s3://exports/../billing"}
	fmt.Println(in.Check())
	in.To = "s3://exports/orders?region=eu-west-1"
	fmt.Println(in.Check())
	// Output:
	// X_BLOB_KEY_INVALID: key has a .. segment
	// <nil>
}

// A nightly handoff of a whole table reads it in storage order, in one
// snapshot: a point-in-time export at the speed of a sequential scan, for
// a table without a key too. The manifest says so.
func ExampleSnapshot() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB()
	defer drop()
	if _, err := pool.Exec(ctx, `create table events (at timestamptz not null, kind text not null);
		insert into events select '2026-12-01'::timestamptz + g * interval '1 minute', 'click' from generate_series(1, 500) g`); err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "warehouse-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	nightly := exportrows.MustNew(func(day string) string { return day }, exportrows.Options[string]{
		Name: "events.nightly",
		Source: func(string) exportrows.Source {
			return exportrows.Source{Table: pg.Relation{Name: "events"}, Order: exportrows.Snapshot}
		},
		Sink: func(day string) exportrows.Sink {
			return exportrows.Sink{Bucket: "file://" + dir, Prefix: "events/" + day} // s3://warehouse?region=eu-west-1, ...
		},
		Compression: "zstd",
	})
	res, err := nightly.Enqueue(ctx, pool, "2026-12-01")
	if err != nil {
		log.Fatal(err)
	}
	state, result := work(ctx, pool, nightly, res.ID)
	raw, err := os.ReadFile(filepath.Join(dir, result.Manifest))
	if err != nil {
		log.Fatal(err)
	}
	var m exportrows.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		log.Fatal(err)
	}
	fmt.Println(state, m.Rows, "rows in", m.Order, "order, read in", m.Snapshots, "snapshot")
	// Output: done 500 rows in snapshot order, read in 1 snapshot
}

// work runs a worker for job until run id settles, as a worker process
// would (see pipeline's package example), and answers how the run ended
// and the export's result.
func work(ctx context.Context, pool *pgxpool.Pool, job pipeline.Registrable, id string) (pipeline.State, exportrows.Result) {
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		log.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer func() { _ = w.Shutdown(context.Background()) }()
	admin := pipeline.NewAdmin(pool)
	run, err := admin.Show(ctx, id)
	for err == nil && run.State.Live() {
		time.Sleep(50 * time.Millisecond)
		run, err = admin.Show(ctx, id)
	}
	if err != nil {
		log.Fatal(err)
	}
	var result exportrows.Result
	if err := json.Unmarshal(run.Result, &result); err != nil {
		log.Fatal(err)
	}
	return run.State, result
}
