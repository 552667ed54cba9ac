package backfill

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// batchOut is what one committed batch did.
type batchOut struct {
	n      int
	last   string
	took   time.Duration
	status Status
}

// Status is a pass's status document on its job row (`pipe jobs show`):
// where it is and what it has done.
type Status struct {
	Cursor    string `json:"cursor"`
	Rows      int64  `json:"rows"`
	Batches   int64  `json:"batches"`
	BatchSize int    `json:"batchSize"`
}

// batch works the next batch of size rows in one transaction fenced on the
// run's claim: the batch's effect, the ledger's cursor and counts, and the
// run's status commit together or not at all. n is 0 when no row is left,
// and the pass is then marked done in the same transaction.
func (w *walker[In]) batch(ctx context.Context, size int) (batchOut, error) {
	var out batchOut
	err := pipeline.FencedTx(ctx, func(ctx context.Context, tx pgx.Tx) (any, error) {
		start := time.Now()
		if _, err := tx.Exec(ctx, sqlTimeouts, ms(w.d.o.LockTimeout), ms(w.d.o.StatementTimeout)); err != nil {
			return nil, err
		}
		var err error
		if w.d.o.Handle != nil {
			out.n, out.last, err = w.handle(ctx, tx, size)
		} else {
			out.n, out.last, err = w.statement(ctx, tx, size)
		}
		if err != nil {
			return nil, errcode.Redact(ctx, err, "backfill "+w.d.name+": batch")
		}
		out.took = time.Since(start)
		if _, err := tx.Exec(ctx, sqlTimeouts, "30s", "0"); err != nil {
			return nil, err
		}
		return w.checkpoint(ctx, tx, size, &out)
	})
	return out, err
}

// checkpoint moves the ledger past the batch, in the batch's transaction.
func (w *walker[In]) checkpoint(ctx context.Context, tx pgx.Tx, size int, out *batchOut) (any, error) {
	if out.n == 0 {
		_, err := tx.Exec(ctx, sqlLedgerDone, w.runID)
		return nil, err
	}
	rate := float64(out.n) / max(out.took.Seconds(), 1e-6)
	if _, err := tx.Exec(ctx, sqlLedgerBatch, w.runID, out.last, out.n, size, rate); err != nil {
		return nil, err
	}
	out.status = Status{Cursor: out.last, Rows: w.rows + int64(out.n), Batches: w.batches + 1, BatchSize: size}
	return out.status, nil
}

// statement reads the batch's range, then runs the SQL over it.
func (w *walker[In]) statement(ctx context.Context, tx pgx.Tx, size int) (int, string, error) {
	first := w.cursor == nil
	args := []any{size}
	if !first {
		args = append(args, *w.cursor)
	}
	var lo, hi any
	var last *string
	var n int
	if err := tx.QueryRow(ctx, w.src.bounds(first), args...).Scan(&lo, &hi, &last, &n); err != nil {
		return 0, "", err
	}
	if n == 0 {
		return 0, "", nil
	}
	if _, err := tx.Exec(ctx, w.d.o.SQL, append([]any{lo, hi}, w.args...)...); err != nil {
		return 0, "", err
	}
	return n, *last, nil
}

// handle reads the batch's rows and hands them to Handle.
func (w *walker[In]) handle(ctx context.Context, tx pgx.Tx, size int) (int, string, error) {
	first := w.cursor == nil
	args := []any{size}
	if !first {
		args = append(args, *w.cursor)
	}
	rows, _ := tx.Query(ctx, w.src.rows(first), args...)
	b := Batch{Columns: w.plan.Columns}
	var keys []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			rows.Close()
			return 0, "", err
		}
		keys = append(keys, vals[0].(string))
		b.Rows = append(b.Rows, vals[1:])
	}
	if err := rows.Err(); err != nil || len(keys) == 0 {
		return 0, "", err
	}
	b.First, b.Last = keys[0], keys[len(keys)-1]
	return len(keys), b.Last, w.d.o.Handle(ctx, tx, b)
}

func ms(d time.Duration) string { return fmt.Sprintf("%dms", max(d.Milliseconds(), 1)) }
