package importrows

import (
	"context"
	"fmt"
	"io"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/coerce"
)

// rowSink takes one page's rows: it coerces each cell for its column and
// either keeps the row or names the field that refuses it.
type rowSink interface {
	row(ctx context.Context, cells []coerce.Cell, line int64) (field string, code errcode.Code, err error)
}

// pageRows runs one page's records through a decoder and a sink, reporting
// every refused row and failing the run when the refusals pass the limit.
type pageRows struct {
	dec    rowDecoder
	sink   rowSink
	rep    *report
	before int64 // refused by the run's earlier pages
	max    int64
	cells  []coerce.Cell

	rows, refused int64
}

// record is the splitter's callback: one record of the page.
func (p *pageRows) record(ctx context.Context, rec []byte, off, line int64) error {
	cells, field, code := p.dec.cells(rec, p.cells[:0])
	p.cells = cells[:0]
	return p.accept(ctx, cells, field, code, line, off)
}

// accept passes a decoded row to the sink, or reports the record refused.
func (p *pageRows) accept(ctx context.Context, cells []coerce.Cell, field string, code errcode.Code, line, off int64) error {
	if code == "" {
		var err error
		if field, code, err = p.sink.row(ctx, cells, line); err != nil {
			return err
		}
	}
	if code != "" {
		return p.refuse(ctx, refusal{Line: line, ByteOffset: off, Field: field, Code: code})
	}
	p.rows++
	return nil
}

// refuse reports a refused row; past the limit it fails the run, with the
// report written and the row's batch not handled.
func (p *pageRows) refuse(ctx context.Context, f refusal) error {
	p.refused++
	if err := p.rep.add(ctx, f); err != nil {
		return err
	}
	if p.before+p.refused > p.max {
		return errTooManyErrors(p.max)
	}
	return nil
}

func errTooManyErrors(max int64) error {
	return errcode.New(errcode.ImportTooManyErrors, "import: more than %d rows were refused", max).
		WithFix(fmt.Sprintf("read the error report (the run's errorPrefix), fix the file and import it again; or raise MaxRowErrors above %d", max)).
		WithMeta("maxRowErrors", fmt.Sprint(max))
}

// copySink encodes accepted rows as COPY csv into w, in chunks.
type copySink struct {
	cols []column
	buf  []byte
	w    io.Writer
}

const copyChunk = 256 << 10

func (s *copySink) row(_ context.Context, cells []coerce.Cell, _ int64) (string, errcode.Code, error) {
	mark := len(s.buf)
	for i := range s.cols {
		col := &s.cols[i]
		if i > 0 {
			s.buf = append(s.buf, ',')
		}
		at := len(s.buf)
		var code errcode.Code
		s.buf, code = col.typ.AppendCSV(s.buf, requiredCell(cells[i], col))
		if code == "" && col.required && len(s.buf) == at {
			code = errcode.ImportFieldRequired
		}
		if code != "" {
			s.buf = s.buf[:mark]
			return col.name, code, nil
		}
	}
	s.buf = append(s.buf, '\n')
	if len(s.buf) < copyChunk {
		return "", "", nil
	}
	return "", "", s.flush()
}

func (s *copySink) flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	_, err := s.w.Write(s.buf)
	s.buf = s.buf[:0]
	return err
}

// handleSink gathers accepted rows into batches for the app's Handle.
type handleSink[In any] struct {
	cols   []column
	batch  Batch[In]
	size   int
	handle func(context.Context, Batch[In]) error
}

func (s *handleSink[In]) row(ctx context.Context, cells []coerce.Cell, _ int64) (string, errcode.Code, error) {
	r := make(Row, len(s.cols))
	for i := range s.cols {
		col := &s.cols[i]
		v, code := col.typ.Value(requiredCell(cells[i], col))
		if code == "" && col.required && v == nil {
			code = errcode.ImportFieldRequired
		}
		if code != "" {
			return col.name, code, nil
		}
		r[col.name] = v
	}
	s.batch.Rows = append(s.batch.Rows, r)
	if len(s.batch.Rows) < s.size {
		return "", "", nil
	}
	return "", "", s.flush(ctx)
}

func (s *handleSink[In]) flush(ctx context.Context) error {
	if len(s.batch.Rows) == 0 {
		return nil
	}
	err := s.handle(ctx, s.batch)
	s.batch.Rows = s.batch.Rows[:0:0]
	return err
}
