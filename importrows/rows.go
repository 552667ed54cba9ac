package importrows

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/coerce"
	"github.com/pipekit/pipe/importrows/internal/split"
)

// rowSink takes one page's rows: it coerces each cell for its column and
// either keeps the row or names the field that refuses it.
type rowSink interface {
	row(ctx context.Context, cells []coerce.Cell, line, off int64) (field string, code errcode.Code, err error)
}

// pageRows runs one page's records through a decoder and a sink, reporting
// every refused row and failing the run when the refusals pass the limit.
type pageRows struct {
	dec    rowDecoder
	sink   rowSink
	rep    *report
	before int64 // refused by the run's earlier pages
	// beforeBare counts those of them refused for a bare quote.
	beforeBare int64
	max        int64
	cells      []coerce.Cell
	// holding is set once the sink holds a row for the server; the page's
	// refusals from then on are kept in deferred, to be reported in line
	// order with the held rows' own (see flushDeferred).
	holding  bool
	deferred []refusal

	rows, refused int64
	bareQuotes    int64 // refused for a quote inside an unquoted field
}

// record is the splitter's callback: one record of the page.
func (p *pageRows) record(ctx context.Context, rec []byte, off, line int64) error {
	cells, f := p.dec.cells(rec, p.cells[:0])
	p.cells = cells[:0]
	return p.accept(ctx, cells, f, line, off)
}

// accept passes a decoded row to the sink, or reports the record refused.
func (p *pageRows) accept(ctx context.Context, cells []coerce.Cell, f fault, line, off int64) error {
	if f.code == "" {
		var err error
		if f.field, f.code, err = p.sink.row(ctx, cells, line, off); err != nil {
			return err
		}
	}
	if f.code == codeHeld {
		p.holding = true
		return nil // counted when the server has answered
	}
	if f.code != "" {
		return p.refuse(ctx, refusal{Line: line, ByteOffset: off, Field: f.field, Code: f.code, Rule: f.rule})
	}
	p.rows++
	return nil
}

// refuse reports a refused row; past the limit it fails the run, with the
// report written and the row's batch not handled.
func (p *pageRows) refuse(ctx context.Context, f refusal) error {
	p.refused++
	if f.Rule == split.RuleBareQuote {
		p.bareQuotes++
	}
	if p.holding {
		p.deferred = append(p.deferred, f)
	} else if err := p.rep.add(ctx, f); err != nil {
		return err
	}
	if p.before+p.refused > p.max {
		return errors.Join(p.flushDeferred(ctx), errTooManyErrors(p.max, p.beforeBare+p.bareQuotes))
	}
	return nil
}

// flushDeferred reports the deferred refusals in line order.
func (p *pageRows) flushDeferred(ctx context.Context) error {
	slices.SortStableFunc(p.deferred, func(a, b refusal) int { return cmp.Compare(a.Line, b.Line) })
	for _, f := range p.deferred {
		if err := p.rep.add(ctx, f); err != nil {
			return err
		}
	}
	p.deferred, p.holding = p.deferred[:0], false
	return nil
}

func errTooManyErrors(max, bareQuotes int64) error {
	fix := fmt.Sprintf("read the error report (the run's errorPrefix), fix the file and import it again; or raise MaxRowErrors above %d", max)
	if bareQuotes > 0 {
		fix = fmt.Sprintf("%d of the rows were refused for a quote inside an unquoted field (rule bare-quote): lenient quotes (pipe import --quotes lenient) read such quotes as data; or ", bareQuotes) + fix
	}
	return errcode.New(errcode.ImportTooManyErrors, "import: more than %d rows were refused", max).
		WithFix(fix).
		WithMeta("maxRowErrors", fmt.Sprint(max))
}

// copySink encodes accepted rows as COPY csv into w, in chunks. A row with
// a value only the server can read is held for the page's end (see
// heldRows).
type copySink struct {
	cols []column
	buf  []byte
	w    io.Writer
	held heldRows
	// starts and asks are the current row's field offsets in buf and the
	// index of each field's value in held (-1: coerced here).
	starts, asks []int
	// line appends each row's line as a last field: the file order of a
	// parallel import's staged rows (see parallel_stage.go).
	line bool
}

const copyChunk = 256 << 10

// codeHeld tells pageRows that the sink holds the row for the server.
const codeHeld errcode.Code = "held"

func (s *copySink) row(_ context.Context, cells []coerce.Cell, line, off int64) (string, errcode.Code, error) {
	mark := len(s.buf)
	s.starts, s.asks = s.starts[:0], s.asks[:0]
	held := false
	for i := range s.cols {
		col := &s.cols[i]
		if i > 0 {
			s.buf = append(s.buf, ',')
		}
		s.starts, s.asks = append(s.starts, len(s.buf)), append(s.asks, -1)
		var code errcode.Code
		s.buf, code = col.appendCSV(s.buf, cells[i])
		if code == errcode.ImportFieldInvalid {
			if text, ok := serverText(col, cells[i]); ok {
				s.asks[i], held = len(s.held.vals), true
				s.held.types, s.held.vals = append(s.held.types, col.typName), append(s.held.vals, text)
				continue
			}
		}
		if code != "" {
			s.held.types, s.held.vals = s.held.types[:len(s.held.types)-s.asked()], s.held.vals[:len(s.held.vals)-s.asked()]
			s.buf = s.buf[:mark]
			return col.name, code, nil
		}
	}
	if held {
		s.hold(mark, line, off)
		return "", codeHeld, nil
	}
	if s.line {
		s.buf = strconv.AppendInt(append(s.buf, ','), line, 10)
	}
	s.buf = append(s.buf, '\n')
	if len(s.buf) < copyChunk {
		return "", "", nil
	}
	return "", "", s.flush()
}

// asked counts the current row's values asked of the server.
func (s *copySink) asked() int {
	n := 0
	for _, a := range s.asks {
		if a >= 0 {
			n++
		}
	}
	return n
}

// hold moves the current row, from mark in buf, into the held rows.
func (s *copySink) hold(mark int, line, off int64) {
	r := heldRow{line: line, off: off, fields: make([]heldField, len(s.starts)), ordinal: s.line}
	for i, start := range s.starts {
		end := len(s.buf)
		if i+1 < len(s.starts) {
			end = s.starts[i+1] - 1
		}
		r.fields[i] = heldField{csv: append([]byte(nil), s.buf[start:end]...), ask: s.asks[i]}
	}
	s.held.rows = append(s.held.rows, r)
	s.buf = s.buf[:mark]
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

func (s *handleSink[In]) row(ctx context.Context, cells []coerce.Cell, _, _ int64) (string, errcode.Code, error) {
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
