package consumer_test

import (
	"context"
	"testing"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/fixtures"
)

// BenchmarkBatchCommit follows b.N items through a consumer in batches of
// 100 — Handle's insert, the cursor save and the run's status in one fenced
// transaction a batch — and reports items/s (`pipe bench consumer` is the
// same figure beside a plain-loop anchor).
func BenchmarkBatchCommit(b *testing.B) {
	pool := setup(b)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, int64(b.N), true) }}
	o := options("bench", fs, "k")
	o.Batch = 100
	c := consumer.MustNew(o)
	fixtures.StartWorker(b, pool, c.Jobs()...)
	b.ResetTimer()
	res, err := c.Enqueue(context.Background(), pool, "k")
	if err != nil {
		b.Fatal(err)
	}
	if d := fixtures.AwaitSettled(b, pool, res.ID); d.State != "done" {
		b.Fatalf("run %s", d.State)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
}
