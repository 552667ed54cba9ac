package pipeline

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Pool answers the pool the worker runs the current job on, for a body that
// reads beside its steps: a long read-only transaction that holds one
// snapshot across many steps, a cursor, a LISTEN. Writes belong in steps
// (StepTx, FencedTx), where they commit with the journal and the claim's
// fence. Outside a job body it answers nil.
func Pool(ctx context.Context) *pgxpool.Pool {
	rs := runFrom(ctx)
	if rs == nil {
		return nil
	}
	return rs.w.pool
}
