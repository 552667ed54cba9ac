package exportrows

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// readOnly answers a savepoint of tx in which the transaction is read-only:
// the step's transaction writes its checkpoint, but its read of the source
// must write nothing (a Where filter calling nextval() is refused with
// SQLSTATE 25006 instead of committing with the page). Rolling the
// savepoint back, as done does, makes the transaction read-write again.
func readOnly(ctx context.Context, tx pgx.Tx) (sp pgx.Tx, done func() error, err error) {
	if sp, err = tx.Begin(ctx); err != nil {
		return nil, nil, err
	}
	done = func() error { return sp.Rollback(context.WithoutCancel(ctx)) }
	if _, err = sp.Exec(ctx, "set local transaction_read_only = on"); err != nil {
		_ = done()
		return nil, nil, err
	}
	return sp, done, nil
}
