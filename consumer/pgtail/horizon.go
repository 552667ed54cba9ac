package pgtail

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// horizon is the id up to which the table is settled: every id at or below
// safe was drawn by a transaction that has ended, so a row with such an id
// is visible now or never will be, and a keyset read up to safe cannot be
// passed by a row that commits later.
//
// It moves as pg_incremental's sequence pipelines do: read the sequence's
// last value (drawn, maybe not committed), then wait for every transaction
// that held a writer's lock on the table at that moment. A transaction that
// drew an id at or below the value did so inside a statement on the table,
// holding its ROW EXCLUSIVE lock, and holds it to its end; once all of them
// have ended, so have all those ids. pg_incremental waits in the server
// (WaitForLockers); a client reads pg_locks instead, and never blocks a
// writer.
type horizon struct {
	safe    int64
	target  int64    // the last value read, settled once writers have ended
	writers []string // the writers in flight when target was read
	pending bool
}

// advance moves safe up when it can. It answers whether safe moved.
func (h *horizon) advance(ctx context.Context, pool *pgxpool.Pool, tb *table) (bool, error) {
	if !h.pending {
		var last *int64
		if err := pool.QueryRow(ctx, sqlLastValue, tb.sequence).Scan(&last); err != nil {
			return false, err
		}
		if last == nil || *last <= h.safe {
			return false, nil
		}
		if err := pool.QueryRow(ctx, sqlWriters, tb.oid).Scan(&h.writers); err != nil {
			return false, err
		}
		h.target, h.pending = *last, true
	}
	if len(h.writers) > 0 {
		var writing bool
		if err := pool.QueryRow(ctx, sqlWriting, tb.oid, h.writers).Scan(&writing); err != nil {
			return false, err
		}
		if writing {
			return false, nil
		}
	}
	h.safe, h.writers, h.pending = h.target, nil, false
	return true, nil
}
