package split_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/split"
)

// record is one record as Scan passed it.
type record struct {
	Text string
	Off  int64
	Line int64
}

// outcome is what scanning a whole document produced: its records, and the
// code, offset and line of the error that stopped it.
type outcome struct {
	Recs  []record
	Code  errcode.Code
	Where string
	Lines int64
}

func (r record) String() string { return fmt.Sprintf("%q@%d:L%d", r.Text, r.Off, r.Line) }

func (o outcome) String() string {
	return fmt.Sprintf("%v err=%s@%s lines=%d", o.Recs, o.Code, o.Where, o.Lines)
}

// collector gathers records and fails the test on one longer than limit.
func collector(t testing.TB, limit int, o *outcome) split.RecordFunc {
	return func(rec []byte, off, line int64) error {
		if len(rec) > limit {
			t.Errorf("record at %d has %d bytes, more than MaxRecord %d", off, len(rec), limit)
		}
		o.Recs = append(o.Recs, record{string(rec), off, line})
		return nil
	}
}

// fail records err in o; a plain error fails the test.
func (o *outcome) fail(t testing.TB, err error) {
	e, ok := errcode.As(err)
	if !ok {
		t.Fatalf("error without a code: %v", err)
	}
	o.Code, o.Where = e.Code, e.Meta[split.MetaByteOffset]+":"+e.Meta[split.MetaLine]
}

func limit(s split.Splitter) int {
	if s.MaxRecord == 0 {
		return split.DefaultMaxRecord
	}
	return s.MaxRecord
}

// scanWhole scans doc as one page.
func scanWhole(t testing.TB, s split.Splitter, doc []byte) outcome {
	var o outcome
	_, lines, err := s.Scan(doc, 0, 1, true, collector(t, limit(s), &o))
	if err != nil {
		o.fail(t, err)
	}
	o.Lines = lines
	return o
}

// scanPages scans doc as a caller does: pages of size bytes from the first
// byte not consumed, a page doubled when it holds no whole record.
func scanPages(t testing.TB, s split.Splitter, doc []byte, size int) outcome {
	var o outcome
	pos, line := 0, int64(1)
	for n := size; ; {
		end := min(pos+n, len(doc))
		c, lines, err := s.Scan(doc[pos:end], int64(pos), line, end == len(doc), collector(t, limit(s), &o))
		if c < 0 || c > end-pos || (end == len(doc) && err == nil && c != end-pos) {
			t.Fatalf("page [%d,%d): consumed %d", pos, end, c)
		}
		pos, line, o.Lines = pos+c, line+lines, line+lines-1
		switch {
		case err != nil:
			o.fail(t, err)
			return o
		case end == len(doc):
			return o
		case c == 0:
			n *= 2
		default:
			n = size
		}
	}
}

// scanCut scans doc as two pages, the first ending at cut.
func scanCut(t testing.TB, s split.Splitter, doc []byte, cut int) outcome {
	var o outcome
	c, lines, err := s.Scan(doc[:cut], 0, 1, cut == len(doc), collector(t, limit(s), &o))
	if err == nil && cut < len(doc) {
		var more int64
		_, more, err = s.Scan(doc[c:], int64(c), 1+lines, true, collector(t, limit(s), &o))
		lines += more
	}
	if err != nil {
		o.fail(t, err)
	}
	o.Lines = lines
	return o
}

// requireSameAtEveryCut asserts that splitting doc into two pages at every
// point, and into pages of every small size, gives the records of one page.
func requireSameAtEveryCut(t *testing.T, s split.Splitter, doc []byte, want outcome) {
	t.Helper()
	for cut := 0; cut <= len(doc); cut++ {
		if got := scanCut(t, s, doc, cut); !equal(got, want) {
			t.Fatalf("cut at %d:\n got %v\nwant %v", cut, got, want)
		}
	}
	for size := 1; size <= len(doc)+1 && size <= 64; size++ {
		if got := scanPages(t, s, doc, size); !equal(got, want) {
			t.Fatalf("pages of %d:\n got %v\nwant %v", size, got, want)
		}
	}
}

var errStop = errors.New("stop")
