package storebench

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// spanDays is how many whole UTC days before today the finished runs
// cover by default, one day partition each, and at most: the partitions the
// bench lays out reach 15 days back.
const spanDays = 14

// resetPartitions lays out a fresh database's finished partitions as a
// store with a retention's worth of history has them: the migration made
// today's few (and an old edge below them, which would take every older
// run), so the bench drops those, empty, and has pipe.ensure_run_partitions
// make them again with the retention's worth behind (past: 15 days, 13
// weeks).
func resetPartitions(ctx context.Context, pool *pgxpool.Pool) error {
	rows, err := pool.Query(ctx, `select name from pipe.run_partitions()`)
	if err != nil {
		return fmt.Errorf("store bench: list partitions: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("store bench: list partitions: %w", err)
	}
	for _, name := range names {
		if _, err := pool.Exec(ctx, "drop table "+pgx.Identifier{"pipe", name}.Sanitize()); err != nil {
			return fmt.Errorf("store bench: drop the empty partition %s: %w", name, err)
		}
	}
	if _, err := pool.Exec(ctx, `select pipe.ensure_run_partitions(pipe.now(), true)`); err != nil {
		return fmt.Errorf("store bench: make partitions: %w", err)
	}
	return nil
}
