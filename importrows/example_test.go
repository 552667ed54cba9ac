package importrows_test

import (
	"fmt"

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
)

// OrgFile names one file an organisation dropped into the bucket.
type OrgFile struct {
	OrgID string `json:"orgId"`
	Key   string `json:"key"`
}

func ExampleNew() {
	job, err := importrows.New(func(in OrgFile) string { return in.OrgID + ":" + in.Key }, importrows.Options[OrgFile]{
		Name: "orders.import",
		Source: func(in OrgFile) importrows.Source {
			return importrows.Source{Bucket: "s3://acme-drops?region=eu-west-1", Key: in.Key}
		},
		Columns: []string{"id", "org_id", "total", "note", "created_at"},
		Into: func(OrgFile) importrows.Table {
			return importrows.Table{Relation: pg.Relation{Name: "orders"}, Key: []string{"id"}}
		},
		Errors: func(in OrgFile) importrows.Sink {
			return importrows.Sink{Bucket: "s3://acme-drops?region=eu-west-1", Prefix: in.OrgID + "/errors"}
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Enqueue it in the transaction that records the upload:
	//   job.Enqueue(ctx, tx, OrgFile{OrgID: org, Key: "drops/2026-12-02.csv.gz"})
	fmt.Println(job.Name(), job.Queue())
	// Output: orders.import default
}

func ExampleNew_declarationFaults() {
	_, err := importrows.New(nil, importrows.Options[OrgFile]{Name: "orders.import", PageBytes: 1024})
	fmt.Println(err)
	// Output: X_JOB_DECLARATION_INVALID: import orders.import: the idempotency key function is nil; Source is nil; Errors (where refused rows are reported) is nil; set exactly one of Into and Handle; PageBytes is not from 64 KiB to 1 GiB
}
