package pqread

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/pipekit/pipe/errcode"
)

// File is an open Parquet file. Each ReadRowGroup call keeps its own
// buffers, but a File is meant to be read by one goroutine at a time.
// Close releases its decoders.
type File struct {
	pf       *parquet.File
	src      *sourceReader
	guard    *guard
	names    []string
	fields   []field
	leaves   int
	firstRow []int64 // 1-based number of each row group's first row
	refusal  error   // the schema's refusal, answered by Check
}

// Open is [OpenLimited] with the default limits.
func Open(r io.ReaderAt, size int64) (*File, error) {
	return OpenLimited(r, size, Limits{})
}

// OpenLimited reads the footer of the Parquet file of size bytes in r,
// whose reading lim bounds. A file that is not Parquet, or whose footer is
// corrupt, is X_IMPORT_RECORD_INVALID; a footer past the memory limit
// X_PARQUET_TOO_LARGE; pages that would inflate past the ratio or byte
// limit, by the footer's sizes, X_DECOMPRESSED_TOO_LARGE. An error of r
// itself is returned wrapped.
func OpenLimited(r io.ReaderAt, size int64, lim Limits) (f *File, err error) {
	src := &sourceReader{r: r, size: size}
	g, err := newGuard(src, size, lim)
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, src.blame(corrupt(fmt.Errorf("panic: %v", p), "the footer"))
		}
	}()
	pf, err := parquet.OpenFile(g, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true),
		parquet.OptimisticRead(false))
	if err != nil {
		return nil, src.blame(corrupt(err, "the footer"))
	}
	if err := g.watch(pf); err != nil {
		return nil, err
	}
	f = &File{pf: pf, src: src, guard: g}
	f.layout()
	return f, nil
}

// layout names the columns, plans their reading and numbers the row groups.
func (f *File) layout() {
	root := f.pf.Root()
	for _, c := range root.Columns() {
		f.names = append(f.names, c.Name())
	}
	f.fields, f.refusal = planFields(root, f.pf.Metadata().Schema)
	f.leaves = countLeaves(root)
	next := int64(1)
	for _, rg := range f.pf.RowGroups() {
		f.firstRow = append(f.firstRow, next)
		next += rg.NumRows()
	}
}

// Close releases the file's decoders; the reader is the caller's.
func (f *File) Close() { f.guard.trial.close() }

// Columns answers the top-level field names in schema order.
func (f *File) Columns() []string { return f.names }

// Check refuses a schema with a field that cannot be read as one column:
// X_IMPORT_HEADER_MISMATCH naming the first such field.
func (f *File) Check() error { return f.refusal }

// RowGroups answers the number of row groups.
func (f *File) RowGroups() int { return len(f.firstRow) }

// NumRows answers the number of rows in row group group.
func (f *File) NumRows(group int) int64 {
	if group < 0 || group >= len(f.firstRow) {
		return 0
	}
	return f.pf.RowGroups()[group].NumRows()
}

// corrupt reports a file that cannot be read as Parquet at where. The cause
// stays out of the message: parquet-go quotes the bytes it rejects.
func corrupt(cause error, where string) *errcode.Error {
	return errcode.Wrap(cause, errcode.ImportRecordInvalid, "parquet file: cannot read %s", where).
		WithFix("check that the object is a complete Parquet file; re-export it if it was truncated or damaged")
}

// sourceReader remembers the first error of the underlying reader, so that
// a failure of the object store is not mistaken for a corrupt file, and
// the first refusal of the guard, so that a page over a limit is reported
// as such rather than as whatever parquet-go made of the failed read. A
// read outside the file is the file's fault (an offset in it is wrong) and
// is not remembered.
type sourceReader struct {
	r       io.ReaderAt
	size    int64
	mu      sync.Mutex
	err     error
	refused error
}

func (s *sourceReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > s.size {
		return 0, errOutside
	}
	short := off > s.size-int64(len(p))
	if short {
		p = p[:s.size-off]
	}
	n, err := s.r.ReadAt(p, off)
	if err != nil && !errors.Is(err, io.EOF) {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	if short && err == nil {
		err = io.EOF
	}
	return n, err
}

var errOutside = errors.New("read outside the file")

// refuse records the guard's refusal, if it is the first, and answers it.
func (s *sourceReader) refuse(err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused == nil && s.err == nil {
		s.refused = err
	}
	return err
}

// blame answers the reader's first error, wrapped, if it has failed, the
// guard's refusal if it refused, and err otherwise. Either sticks: once
// the source has failed, a later error is not trusted to mean a corrupt
// file.
func (s *sourceReader) blame(err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.err != nil:
		return fmt.Errorf("read parquet file: %w", s.err)
	case s.refused != nil:
		return s.refused
	}
	return err
}
