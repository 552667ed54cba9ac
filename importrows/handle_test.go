package importrows_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// handleJob imports orders through an app Handle that upserts each batch:
// at least once per page, so the write is idempotent.
func handleJob(pool *pgxpool.Pool, seen *batches) *pipeline.Job[fileIn, importrows.Result] {
	return importrows.MustNew(fileKey, importrows.Options[fileIn]{
		Name:      "test.handle",
		Source:    func(in fileIn) importrows.Source { return importrows.Source{Bucket: in.Bucket, Key: in.Key} },
		Columns:   []string{"id", "org_id", "total", "note", "created_at"},
		Types:     map[string]string{"id": "uuid", "org_id": "uuid", "total": "bigint", "created_at": "timestamptz"},
		Errors:    func(in fileIn) importrows.Sink { return importrows.Sink{Bucket: in.Bucket, Prefix: "errors"} },
		PageBytes: 64 << 10,
		Batch:     100,
		Handle: func(ctx context.Context, b importrows.Batch[fileIn]) error {
			seen.add(b)
			for _, r := range b.Rows {
				_, err := pool.Exec(ctx, `insert into orders values ($1, $2, $3, $4, $5)
					on conflict (id) do update set total = excluded.total`,
					r["id"], r["org_id"], r["total"], r["note"], r["created_at"])
				if err != nil {
					return err
				}
			}
			return nil
		},
		Job: pipeline.JobOptions[fileIn, importrows.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	})
}

// batches records what Handle was given.
type batches struct {
	mu    sync.Mutex
	sizes []int
	typed bool
}

func (s *batches) add(b importrows.Batch[fileIn]) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sizes = append(s.sizes, len(b.Rows))
	_, isUUID := b.Rows[0]["id"].(uuid.UUID)
	_, isInt := b.Rows[0]["total"].(int64)
	_, isTime := b.Rows[0]["created_at"].(time.Time)
	s.typed = isUUID && isInt && isTime && len(b.Columns) == 5
}

func TestImportHandleGetsTypedBatches(t *testing.T) {
	b := setup(t, ordersDDL)
	seen := &batches{}
	d, res := run(t, b.pool, handleJob(b.pool, seen), b.put(t, "o.csv", ordersCSV(1000)))
	if d.State != "done" || res.Rows != 1000 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	if !seen.typed {
		t.Fatal("Handle's rows are not coerced to the declared types")
	}
	for _, n := range seen.sizes {
		if n > 100 {
			t.Fatalf("a batch of %d rows; Batch is 100", n)
		}
	}
	if count(t, b, `select count(*) from orders`) != 1000 {
		t.Fatal("Handle's writes are missing")
	}
}

func TestImportHandleIsCrashProof(t *testing.T) {
	b := setup(t, ordersDDL)
	in := b.put(t, "o.csv", ordersCSV(3000)) // several pages of 64 KiB
	fixtures.MustCrashProof(t, b.pool, handleJob(b.pool, &batches{}), in, fixtures.CrashProofOptions{
		Reset: func(ctx context.Context) error {
			_, err := b.pool.Exec(ctx, `truncate orders`)
			return err
		},
		Effects: func(ctx context.Context) (any, error) {
			var n, sum int64
			err := b.pool.QueryRow(ctx, `select count(*), sum(total) from orders`).Scan(&n, &sum)
			return [2]int64{n, sum}, err
		},
		Timeout: 60 * time.Second,
	})
}
