package importrows_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// OrgFile names one file an organisation dropped into the bucket.
type OrgFile struct {
	OrgID string `json:"orgId"`
	Key   string `json:"key"`
}

// An organisation drops a CSV file into a bucket; the import, enqueued
// for it, writes the rows it can into orders and reports the one it
// refuses (a total that is not a number) under Errors' prefix.
func ExampleNew() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	if _, err := pool.Exec(ctx, `create table orders (id int primary key, org_id text not null,
		total numeric not null, note text, created_at timestamptz not null)`); err != nil {
		log.Fatal(err)
	}
	drops, err := blob.Open(ctx, "mem://acme-drops") // s3://acme-drops?region=eu-west-1, ...
	if err != nil {
		log.Fatal(err)
	}
	defer drops.Close()
	file := "id,org_id,total,note,created_at\n" +
		"1,org-42,12.50,first,2026-12-02T09:00:00Z\n" +
		"2,org-42,twelve,,2026-12-02T10:00:00Z\n" +
		"3,org-42,3.20,\"gift, wrapped\",2026-12-02T11:00:00Z\n"
	if err := drops.WriteBytes(ctx, "drops/2026-12-02.csv", []byte(file), blob.WriteOptions{}); err != nil {
		log.Fatal(err)
	}

	job, err := importrows.New(func(in OrgFile) string { return in.OrgID + ":" + in.Key }, importrows.Options[OrgFile]{
		Name: "orders.import",
		Source: func(in OrgFile) importrows.Source {
			return importrows.Source{Bucket: "mem://acme-drops", Key: in.Key}
		},
		Columns: []string{"id", "org_id", "total", "note", "created_at"},
		Into: func(OrgFile) importrows.Table {
			return importrows.Table{Relation: pg.Relation{Name: "orders"}, Key: []string{"id"}}
		},
		Errors: func(in OrgFile) importrows.Sink {
			return importrows.Sink{Bucket: "mem://acme-drops", Prefix: in.OrgID + "/errors"}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	// Or in the transaction that records the upload: job.Enqueue(ctx, tx, ...).
	res, err := job.Enqueue(ctx, pool, OrgFile{OrgID: "org-42", Key: "drops/2026-12-02.csv"})
	if err != nil {
		log.Fatal(err)
	}

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
	run, err := admin.Show(ctx, res.ID)
	for err == nil && run.State.Live() {
		time.Sleep(50 * time.Millisecond)
		run, err = admin.Show(ctx, res.ID)
	}
	if err != nil {
		log.Fatal(err)
	}
	var result importrows.Result
	if err := json.Unmarshal(run.Result, &result); err != nil {
		log.Fatal(err)
	}
	var total string
	if err := pool.QueryRow(ctx, `select sum(total)::text from orders`).Scan(&total); err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.State, result.Rows, "rows,", result.Refused, "refused")
	fmt.Println("orders total", total)
	// Output:
	// done 2 rows, 1 refused
	// orders total 15.70
}

func ExampleNew_declarationFaults() {
	_, err := importrows.New(nil, importrows.Options[OrgFile]{Name: "orders.import", PageBytes: 1024})
	fmt.Println(err)
	// Output: X_JOB_DECLARATION_INVALID: import orders.import: the idempotency key function is nil; Source is nil; Errors (where refused rows are reported) is nil; set exactly one of Into and Handle; PageBytes is not from 64 KiB to 1 GiB
}
