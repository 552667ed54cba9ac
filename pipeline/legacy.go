package pipeline

import (
	"context"
)

// legacyBatch is how many runs of the earlier layout one transaction moves;
// legacySlice how many one maintenance pass moves.
const (
	legacyBatch = 5000
	legacySlice = 50000
)

// MoveLegacyRuns moves the finished runs a database migrated from the
// layout before partitioning kept (pipe.jobs_legacy, read through the
// pipe.jobs view meanwhile) into the partitions, batch runs a transaction
// (0: 5,000), until none is left, and then drops the legacy tables.
// Workers claim, enqueue and settle throughout; a run an operator is
// working on is left for a later batch; a kill loses nothing (each batch is
// one transaction) and the next call resumes. progress, when not nil, hears
// the total moved after each batch. pipe migrate calls it after the
// migrations; the maintenance continues it a slice a pass. Answers how many
// runs moved.
func MoveLegacyRuns(ctx context.Context, db DB, batch int, progress func(moved int64)) (int64, error) {
	if batch <= 0 {
		batch = legacyBatch
	}
	var total int64
	for {
		n, err := moveLegacyBatch(ctx, db, batch)
		if err != nil || n < 0 {
			return total, err
		}
		total += int64(n)
		if progress != nil {
			progress(total)
		}
	}
}

// moveLegacySlice moves up to limit runs of the earlier layout, a batch a
// statement.
func moveLegacySlice(ctx context.Context, db DB, limit int) (int64, error) {
	var total int64
	for total < int64(limit) {
		n, err := moveLegacyBatch(ctx, db, legacyBatch)
		if err != nil || n <= 0 {
			return total, err
		}
		total += int64(n)
	}
	return total, nil
}

// moveLegacyBatch moves up to n runs; it answers -1 once none is left.
func moveLegacyBatch(ctx context.Context, db DB, n int) (int, error) {
	var moved int
	err := db.QueryRow(ctx, `select pipe.move_legacy_runs($1)`, n).Scan(&moved)
	return moved, adminErr("move earlier runs", err)
}
