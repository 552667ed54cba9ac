package pipeline

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Pool answers the pool the worker runs the current job on, for a body that
// reads beside its steps. A connection kept across steps (a long read-only
// transaction that holds one snapshot, a cursor, a LISTEN) must be taken
// with [Hold], whose budget keeps such bodies from taking every connection
// their steps need. Writes belong in steps (StepTx, FencedTx), where they
// commit with the journal and the claim's fence. Outside a job body it
// answers nil.
func Pool(ctx context.Context) *pgxpool.Pool {
	rs := runFrom(ctx)
	if rs == nil {
		return nil
	}
	return rs.w.pool
}
