package outbox

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// StreamStatus is one stream's state, as `pipe outbox status` shows it.
type StreamStatus struct {
	Stream string `json:"stream"`
	// LagRows are the rows committed and not yet published (dead, held and
	// released rows are counted apart).
	LagRows int64 `json:"lagRows"`
	// LagSeconds is the age of the oldest of them; 0 when there is none.
	LagSeconds float64 `json:"lagSeconds"`
	// OldestUnpublished is when the oldest of them was staged; nil when
	// there is none.
	OldestUnpublished *time.Time `json:"oldestUnpublished"`
	// PublishedPerSecond is the rate over the last minute.
	PublishedPerSecond float64 `json:"publishedPerSecond"`
	// Dead rows were refused by the broker for good; Held wait behind them;
	// Released wait for the relay after `pipe outbox retry`.
	Dead     int64 `json:"dead"`
	Held     int64 `json:"held"`
	Released int64 `json:"released"`
}

// Status answers the state of every stream with rows in pipe.outbox, by
// stream name, through db.
func Status(ctx context.Context, db pipeline.DB) ([]StreamStatus, error) {
	rows, err := db.Query(ctx, sqlStatus)
	if err != nil {
		return nil, errcode.Postgres(ctx, err, "outbox: read the status")
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (StreamStatus, error) {
		var s StreamStatus
		var lastMinute int64
		err := row.Scan(&s.Stream, &s.LagRows, &s.OldestUnpublished, &s.LagSeconds, &lastMinute, &s.Dead, &s.Held, &s.Released)
		s.PublishedPerSecond = float64(lastMinute) / 60
		return s, err
	})
	if err != nil {
		return nil, errcode.Postgres(ctx, err, "outbox: read the status")
	}
	return out, nil
}

// DefaultRetain is how long [Prune] keeps published rows by default.
const DefaultRetain = 24 * time.Hour

// pruneChunk is how many rows one statement of Prune deletes.
const pruneChunk = 10_000

// Prune deletes the rows published more than retain ago (DefaultRetain
// when retain is zero), 10,000 a statement, and answers how many, then the
// record of the batches that published them. A row counts as published
// when its batch committed (a released row published again, when the batch
// that first passed it did). Rows not published — waiting, dead, held,
// released — are never pruned.
func Prune(ctx context.Context, db pipeline.DB, retain time.Duration) (int64, error) {
	if retain == 0 {
		retain = DefaultRetain
	}
	var total int64
	for {
		tag, err := db.Exec(ctx, sqlPrune, retain, pruneChunk)
		if err != nil {
			return total, errcode.Postgres(ctx, err, "outbox: prune published rows")
		}
		total += tag.RowsAffected()
		if tag.RowsAffected() < pruneChunk {
			break
		}
	}
	if _, err := db.Exec(ctx, sqlPruneBatches, retain); err != nil {
		return total, errcode.Postgres(ctx, err, "outbox: prune the batches' record")
	}
	return total, nil
}
