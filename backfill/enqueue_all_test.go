package backfill_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type one struct {
	ID int64 `json:"id"`
}

func TestEnqueueAllEnqueuesPastTheBatchLimit(t *testing.T) {
	pool := fixtures.DB(t)
	job := pipeline.MustJob("test.one", func(o one) string { return fmt.Sprint(o.ID) },
		func(context.Context, *pipeline.Run[one]) (struct{}, error) { return struct{}{}, nil })
	rows := pipeline.MaxEnqueueBatch + 1500
	n, err := backfill.EnqueueAll(context.Background(), pool, job, `select g as id from generate_series(1, $1::int) g`, rows)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(rows) {
		t.Fatalf("enqueued %d", n)
	}
	if c := scalar[int64](t, pool, `select count(distinct idem_key) from pipe.jobs where name = 'test.one'`); c != int64(rows) {
		t.Fatalf("%d jobs queued", c)
	}
	// A second call dedupes on the live runs.
	if _, err := backfill.EnqueueAll(context.Background(), pool, job, `select g as id from generate_series(1, $1::int) g`, rows); err != nil {
		t.Fatal(err)
	}
	if c := scalar[int64](t, pool, `select count(*) from pipe.jobs where name = 'test.one'`); c != int64(rows) {
		t.Fatalf("%d jobs queued after a second call", c)
	}
}
