package importrows_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/internal/orders"
)

// BenchmarkImportOrders imports 200,000 orders of the anchors' shape with
// upsert and checkpoints; b.SetBytes makes it report MB/s. Run with
// -memprofile to see what a page allocates.
func BenchmarkImportOrders(b *testing.B) {
	var data bytes.Buffer
	if err := orders.Write(&data, 200_000, 7); err != nil {
		b.Fatal(err)
	}
	pool := fixtures.DB(b)
	bn := &bundle{pool: pool, dir: b.TempDir()}
	if _, err := pool.Exec(context.Background(), ordersDDL); err != nil {
		b.Fatal(err)
	}
	in := bn.put(b, "orders.csv", data.Bytes())
	job := importrows.MustNew(fileKey, tableOptions("orders", "id"))
	b.SetBytes(int64(data.Len()))
	b.ResetTimer()
	for i := range b.N {
		in.Run = string(rune('a' + i%26))
		d, _ := run(b, pool, job, in)
		if d.State != "done" {
			b.Fatalf("%s %+v", d.State, d.LastError)
		}
	}
}
