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
		for _, row := range batch[:n] {
			vals, ferr := asm.row(row)
			if ferr != nil {
				return r.refuse(ferr)
			}
			if ferr = fn(r.next, vals); ferr != nil {
				return ferr
			}
			r.next++
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// read reads one batch; a failure of the library is a corrupt row group.
func (r *groupReader) read(batch []parquet.Row) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			n, err = 0, fmt.Errorf("panic: %v", p)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			err = r.f.src.blame(corrupt(err, "row group "+strconv.Itoa(r.group)).
				WithMeta(MetaRowGroup, strconv.Itoa(r.group)))
		}
	}()
	return r.rows.ReadRows(batch)
}

// refuse reports a row that breaks the file's schema.
func (r *groupReader) refuse(cause error) error {
	return errcode.New(errcode.ImportRecordInvalid, "parquet row %d: %s", r.next, cause.Error()).
		WithFix("re-export the file; its writer produced a row that does not fit its schema").
		WithMeta(MetaRowGroup, strconv.Itoa(r.group)).
		WithMeta(MetaRow, strconv.FormatInt(r.next, 10))
}
