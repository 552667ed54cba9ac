package outbox

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Retry releases a stream's dead rows and the rows held behind them — of
// keys only, when some are given — for its relay to publish again, in id
// order, ahead of the stream's new rows. It answers how many rows it
// released. It takes the stream's lock, so a batch in flight finishes first
// and none holds a row back after the release.
func Retry(ctx context.Context, db pipeline.DB, stream string, keys ...string) (int64, error) {
	var n int64
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, sqlLock, lockKey(stream)); err != nil {
			return err
		}
		var ks []string
		if len(keys) > 0 {
			ks = keys
		}
		tag, err := tx.Exec(ctx, sqlRelease, stream, ks)
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, errcode.Postgres(ctx, err, "outbox: release dead rows")
	}
	return n, nil
}
