package pgtail

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// feed reads one key's rows in id order, never past the horizon.
type feed[T any] struct {
	t    *Tail[T]
	tb   *table
	sql  string
	args []any
	key  string
	// cursor is the id past the last row answered; pos is how far the
	// table has been read (at or past cursor: ids without a row in
	// between).
	cursor, pos int64
	h           horizon
	idle        idle
}

// Read answers up to max rows after the last one answered, settled ones
// only; with none it moves the horizon and looks again — every Poll, or
// backing off to IdlePollMax once the wake is proven, at once when woken —
// for at most wait. A look that is not due yet costs no query.
func (f *feed[T]) Read(ctx context.Context, max int, wait time.Duration) ([]Row[T], error) {
	deadline := time.Now().Add(wait)
	for {
		due, err := f.idle.wait(ctx, deadline)
		if err != nil || !due {
			return nil, err
		}
		f.idle.arm(f.t.wake, f.key)
		if f.pos < f.h.safe {
			rows, err := f.page(ctx, max)
			if err != nil || len(rows) > 0 {
				f.idle.reset()
				return rows, err
			}
		}
		moved, err := f.h.advance(ctx, f.t.pool, f.tb)
		if err != nil {
			return nil, sourceErr(ctx, f.t.o, "move the horizon", err)
		}
		if moved {
			continue
		}
		f.idle.missed(f.t.o.Poll, f.t.o.IdlePollMax, f.t.wake, f.h.pending)
	}
}

// page reads the rows after pos up to the horizon, at most limit. A short
// page has read everything up to the horizon.
func (f *feed[T]) page(ctx context.Context, limit int) ([]Row[T], error) {
	rows, err := f.t.pool.Query(ctx, f.sql, append(f.args, max(f.pos, f.cursor), f.h.safe, limit)...)
	if err != nil {
		return nil, sourceErr(ctx, f.t.o, "read rows", err)
	}
	defer rows.Close()
	out := make([]Row[T], 0, limit)
	row := &idRow{rows: rows}
	for rows.Next() {
		fd := rows.FieldDescriptions()[0]
		var id int64
		if err := rows.Conn().TypeMap().Scan(fd.DataTypeOID, fd.Format, rows.RawValues()[0], &id); err != nil {
			return nil, sourceErr(ctx, f.t.o, "read an id", err)
		}
		v, err := f.t.o.Scan(row)
		if err != nil {
			return nil, sourceErr(ctx, f.t.o, "scan a row", err)
		}
		out = append(out, Row[T]{ID: id, Value: v})
	}
	if err := rows.Err(); err != nil {
		return nil, sourceErr(ctx, f.t.o, "read rows", err)
	}
	f.pos = f.h.safe
	if len(out) == limit {
		f.pos = out[len(out)-1].ID
	}
	if len(out) > 0 {
		f.cursor = out[len(out)-1].ID
	}
	return out, nil
}

// Close releases the tail's LISTEN session, if it has one; the feed holds
// no connection between reads.
func (f *feed[T]) Close() error {
	if f.t.wake != nil {
		f.t.wake.Release()
	}
	return nil
}

// idRow is a row without its leading id column, for the app's Scan.
type idRow struct {
	rows pgx.Rows
}

func (r *idRow) FieldDescriptions() []pgconn.FieldDescription { return r.rows.FieldDescriptions()[1:] }

// Scan skips the id (a nil destination) and scans the columns into dest.
func (r *idRow) Scan(dest ...any) error { return r.rows.Scan(append([]any{nil}, dest...)...) }

func (r *idRow) Values() ([]any, error) {
	v, err := r.rows.Values()
	if err != nil {
		return nil, err
	}
	return v[1:], nil
}

func (r *idRow) RawValues() [][]byte { return r.rows.RawValues()[1:] }
