package storebench

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// statement is one statement sent: its SQL and its arguments.
type statement struct {
	sql  string
	args []any
}

// recorder is the pipeline.DB the bench hands pipeline.Admin: it passes
// every statement to the pool and keeps it, so that the plan read for an
// operator read is the plan of the very statement Admin sent, with its
// arguments. One goroutine at a time uses it.
type recorder struct {
	pool *pgxpool.Pool
	sent []statement
}

func (r *recorder) keep(sql string, args []any) {
	r.sent = append(r.sent, statement{sql: sql, args: args})
}

// take answers the statements sent since the last take.
func (r *recorder) take() []statement {
	out := r.sent
	r.sent = nil
	return out
}

func (r *recorder) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.keep(sql, args)
	return r.pool.Exec(ctx, sql, args...)
}

func (r *recorder) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.keep(sql, args)
	return r.pool.Query(ctx, sql, args...)
}

func (r *recorder) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	r.keep(sql, args)
	return r.pool.QueryRow(ctx, sql, args...)
}

// Begin starts a transaction on the pool whose statements are kept too.
func (r *recorder) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingTx{Tx: tx, r: r}, nil
}

// recordingTx is a transaction of the recorder's: its statements are kept
// with the others, in order.
type recordingTx struct {
	pgx.Tx
	r *recorder
}

func (t *recordingTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	t.r.keep(sql, args)
	return t.Tx.Exec(ctx, sql, args...)
}

func (t *recordingTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	t.r.keep(sql, args)
	return t.Tx.Query(ctx, sql, args...)
}

func (t *recordingTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	t.r.keep(sql, args)
	return t.Tx.QueryRow(ctx, sql, args...)
}

// Begin starts a savepoint whose statements are kept too.
func (t *recordingTx) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := t.Tx.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingTx{Tx: tx, r: t.r}, nil
}
