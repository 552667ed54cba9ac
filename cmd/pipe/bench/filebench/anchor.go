package filebench

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// table is the bench's target, shaped as the anchor script's anchor_orders.
const (
	table    = "pipe_bench_orders"
	tableDDL = `drop table if exists pipe_bench_orders;
create table pipe_bench_orders(id uuid primary key, org_id uuid not null, total bigint not null, note text, created_at timestamptz not null)`
)

// ordersSeed is the generated orders file's seed: every run measures the
// same bytes.
const ordersSeed = 7

// copyUpsert is the anchor, done the way import-anchors.sh does it: the
// whole file COPYed into a temporary table, then one INSERT ... ON CONFLICT
// DO UPDATE, in one transaction.
func copyUpsert(ctx context.Context, pool *pgxpool.Pool, path string) (time.Duration, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	start := time.Now()
	var n int64
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `create temp table t (like pipe_bench_orders) on commit drop`); err != nil {
			return err
		}
		if _, err := tx.Conn().PgConn().CopyFrom(ctx, f, `copy t from stdin (format csv, header)`); err != nil {
			return fmt.Errorf("copy: %w", err)
		}
		tag, err := tx.Exec(ctx, `insert into pipe_bench_orders select * from t on conflict (id) do update
			set org_id = excluded.org_id, total = excluded.total, note = excluded.note, created_at = excluded.created_at`)
		n = tag.RowsAffected()
		return err
	})
	return time.Since(start), n, err
}
