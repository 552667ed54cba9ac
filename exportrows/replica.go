package exportrows

import (
	"context"
	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// replicaPage reads a keyset page on the replica, in a read-only
// transaction of its own; the page's checkpoint still commits in the
// step's transaction on the job's database.
func (a *attempt[In]) replicaPage(ctx context.Context, page int, cur cursor) (cursor, error) {
	tx, err := a.ex.o.Replica.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return cur, errcode.Postgres(ctx, err, "export "+a.plan.Name+": read a page on the replica")
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	return a.readPage(ctx, tx, page, cur)
}

// replicaSnapshot begins a snapshot export's read on a connection of the
// replica's pool, answering the function that gives the connection back.
func (a *attempt[In]) replicaSnapshot(ctx context.Context) (pgx.Tx, func(), error) {
	conn, err := a.ex.o.Replica.Acquire(ctx)
	if err != nil {
		return nil, nil, errcode.Postgres(ctx, err, "export "+a.plan.Name+": connect to the replica")
	}
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		conn.Release()
		return nil, nil, errcode.Postgres(ctx, err, "export "+a.plan.Name+": begin the snapshot on the replica")
	}
	return tx, conn.Release, nil
}
