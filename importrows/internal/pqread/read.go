package pqread

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/pipekit/pipe/errcode"
)

// batchRows is how many rows one ReadRows call reads.
const batchRows = 256

// The metadata keys of the errors ReadRowGroup returns.
const (
	// MetaRowGroup is the 0-based row group being read.
	MetaRowGroup = "rowGroup"
	// MetaRow is the 1-based number in the file of a row that breaks the
	// file's own schema.
	MetaRow = "row"
)

// ReadRowGroup calls fn for each row of row group i with one Value per
// column, in Columns order, and the row's 1-based number in the file. vals
// and their Text are valid until fn returns. An error of fn, or of ctx,
// stops the reading and is returned as it is.
func (f *File) ReadRowGroup(ctx context.Context, i int, fn func(row int64, vals []Value) error) error {
	if err := f.Check(); err != nil {
		return err
	}
	if i < 0 || i >= len(f.firstRow) {
		return errcode.New(errcode.Invariant, "parquet row group %d of %d", i, len(f.firstRow))
	}
	f.guard.begin()
	rows, err := f.openRows(i)
	if err != nil {
		return err
	}
	defer rows.Close()
	r := groupReader{f: f, group: i, rows: rows, next: f.firstRow[i]}
	return r.run(ctx, fn)
}

func (f *File) openRows(i int) (rows parquet.Rows, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = f.src.blame(corrupt(fmt.Errorf("panic: %v", p), "a row group"))
		}
	}()
	return f.pf.RowGroups()[i].Rows(), nil
}

// groupReader reads one row group in batches.
type groupReader struct {
	f     *File
	group int
	rows  parquet.Rows
	next  int64 // number of the next row
}

func (r *groupReader) run(ctx context.Context, fn func(row int64, vals []Value) error) error {
	batch := make([]parquet.Row, batchRows)
	asm := newAssembler(r.f.fields, r.f.leaves)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := r.read(batch)
		if derr := r.deliver(batch[:n], asm, fn); derr != nil {
			return derr
		}
		switch {
		case errors.Is(err, io.EOF):
			return r.complete()
		case err != nil:
			return err
		case n == 0:
			return r.corrupt(io.ErrNoProgress)
		}
	}
}

// deliver converts rows and hands each to fn.
func (r *groupReader) deliver(rows []parquet.Row, asm *assembler, fn func(row int64, vals []Value) error) error {
	for _, row := range rows {
		vals, err := asm.row(row)
		if err != nil {
			return r.refuse(err)
		}
		if err = fn(r.next, vals); err != nil {
			return err
		}
		r.next++
	}
	return nil
}

// complete checks that the row group held the rows its footer claims.
func (r *groupReader) complete() error {
	want := r.f.firstRow[r.group] + r.f.NumRows(r.group)
	if r.next != want {
		return r.corrupt(fmt.Errorf("row group ended after %d of %d rows", r.next-r.f.firstRow[r.group], want-r.f.firstRow[r.group]))
	}
	return nil
}

// read reads one batch; a failure of the library is a corrupt row group.
func (r *groupReader) read(batch []parquet.Row) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			n, err = 0, fmt.Errorf("panic: %v", p)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			err = r.corrupt(err)
		}
	}()
	return r.rows.ReadRows(batch)
}

// corrupt reports a row group that cannot be read, or a failure of the
// source that stopped its reading.
func (r *groupReader) corrupt(cause error) error {
	return r.f.src.blame(corrupt(cause, "row group "+strconv.Itoa(r.group)).
		WithMeta(MetaRowGroup, strconv.Itoa(r.group)))
}

// refuse reports a row that breaks the file's schema.
func (r *groupReader) refuse(cause error) error {
	return errcode.New(errcode.ImportRecordInvalid, "parquet row %d: %s", r.next, cause.Error()).
		WithFix("re-export the file; its writer produced a row that does not fit its schema").
		WithMeta(MetaRowGroup, strconv.Itoa(r.group)).
		WithMeta(MetaRow, strconv.FormatInt(r.next, 10))
}
