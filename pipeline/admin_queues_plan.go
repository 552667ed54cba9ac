package pipeline

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// queuePlanSettings sets the planner settings Queues' statements run
// under, for its transaction. A count per queue is capped: the planner
// prices each at its cap, and past jit_above_cost would compile the
// statement (a second, for what runs in milliseconds); and a capped count
// reads its first rows through the queue's index and stops, where the
// planner, pricing the heap's random reads, would rather read every row of
// the queue in a partition's index into a bitmap (12,000 a queue and week
// at 1M runs a day: 1.7 ms a queue against 0.14) or a partition whole.
//
// The settings end with the transaction. In a caller's transaction (an
// Admin over a pgx.Tx, where Queues' own is a savepoint) they would outlive
// Queues, so restore puts back what they were; elsewhere it does nothing.
func queuePlanSettings(ctx context.Context, tx pgx.Tx, callersTx bool) (restore func(), err error) {
	restore = func() {}
	if callersTx {
		var jit, bitmap, seq string
		if err := tx.QueryRow(ctx, `select current_setting('jit'), current_setting('enable_bitmapscan'),
			current_setting('enable_seqscan')`).Scan(&jit, &bitmap, &seq); err != nil {
			return restore, err
		}
		restore = func() {
			_, _ = tx.Exec(context.WithoutCancel(ctx), `select set_config('jit', $1, true),
				set_config('enable_bitmapscan', $2, true), set_config('enable_seqscan', $3, true)`, jit, bitmap, seq)
		}
	}
	_, err = tx.Exec(ctx, `select set_config('jit', 'off', true), set_config('enable_bitmapscan', 'off', true),
		set_config('enable_seqscan', 'off', true)`)
	return restore, err
}
