package pipeline

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// EnsurePartitions makes every partition of finished runs (and their
// journals) that a run finishing in the next days needs: yesterday's,
// today's and the next two days' for done and cancelled runs; last week's,
// this week's and the next one's for dead and failed ones. The
// worker calls it at start and the maintenance hourly; a run that finds no
// partition (a database whose maintenance has not run for days) makes them
// and settles again. Answers how many partitions it made.
func EnsurePartitions(ctx context.Context, db DB) (int, error) {
	var made int
	err := db.QueryRow(ctx, `select pipe.ensure_run_partitions()`).Scan(&made)
	return made, adminErr("make partitions", err)
}

// isNoPartition tells whether err is PostgreSQL refusing a row for want of
// a partition that holds it (a finished run whose day has none yet).
func isNoPartition(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23514" && pgErr.ConstraintName == "" &&
		pgErr.TableName != "" && pgErr.Routine == "ExecFindPartition"
}

// isMovedConcurrently tells whether err is a statement that found the row
// it meant to lock or update moved to another partition by a concurrent
// transaction (40001): it is retried as a serialization failure is.
func isMovedConcurrently(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "40001"
}

// settleTries bounds how many times a worker's statement is sent again for
// a missing partition or a row a concurrent statement moved.
const settleTries = 3

// retryMoved runs fn, and again (up to settleTries in all) when it failed
// for a row moved to another partition by a concurrent statement (an
// operator's cancel beside a settle), or for a finished run whose partition
// was missing, which it first makes. fn must start afresh each time.
func retryMoved(ctx context.Context, db DB, fn func() error) error {
	for tries := 1; ; tries++ {
		err := fn()
		if err == nil || tries == settleTries || ctx.Err() != nil {
			return err
		}
		switch {
		case isNoPartition(err):
			if _, ensureErr := EnsurePartitions(ctx, db); ensureErr != nil {
				return err
			}
		case isMovedConcurrently(err):
		default:
			return err
		}
	}
}
