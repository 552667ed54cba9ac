package split

import (
	"bytes"

	"github.com/pipekit/pipe/errcode"
)

// DefaultMaxRecord is the record size limit of a [Splitter] whose MaxRecord
// is 0: 64 KiB.
const DefaultMaxRecord = 64 << 10

// bom is the UTF-8 byte order mark, skipped at file offset 0.
var bom = []byte{0xEF, 0xBB, 0xBF}

// Splitter finds the ends of records. The zero value splits NDJSON with
// [DefaultMaxRecord]; set Quote to '"' for CSV. A Splitter holds no state
// between calls and may be shared.
type Splitter struct {
	// Quote is the byte that quotes a CSV field, usually '"'; a line end
	// between quotes is data. 0 (the default) means nothing is quoted, as in
	// NDJSON: every line end ends a record. It must not be '\n' or '\r'.
	Quote byte
	// MaxRecord is the longest record in bytes, without its line terminator.
	// 0 (the default) means DefaultMaxRecord.
	MaxRecord int
	// Lenient makes a quote open a quoted field only at a field's start (the
	// record's start or just after Delim); a quote elsewhere in an unquoted
	// field is data, as [FieldParser.Lenient] reads it. False (the default)
	// is strict: every quote outside a quoted field opens one.
	Lenient bool
	// Delim is the field delimiter Lenient looks for: ',' when 0.
	Delim byte
	// End is the file's line end (see [Splitter.Detect]): LF (the default,
	// when 0) ends a record at '\n', CR at '\r'.
	End LineEnd
}

// RecordFunc receives one record: its bytes without the line terminator
// (valid only during the call), the file offset of its first byte, and the
// 1-based line it starts on. An error stops the scan and is returned as is.
type RecordFunc func(rec []byte, off int64, line int64) error

// Validate answers X_CONFIG_INVALID if s cannot split records.
func (s *Splitter) Validate() error {
	if s.Quote == '\n' || s.Quote == '\r' {
		return errcode.New(errcode.ConfigInvalid, "quote byte is a line terminator").
			WithFix(`use '"' as the quote byte, or 0 for none`)
	}
	if err := validEnd(s.End); err != nil {
		return err
	}
	if s.MaxRecord < 0 {
		return errcode.New(errcode.ConfigInvalid, "maximum record size is negative").
			WithFix("use a positive size, or 0 for the default of 64 KiB")
	}
	return nil
}

// Scan calls fn for each whole record in buf, in order. buf starts at a
// record start; base is the file offset of buf[0] and line its 1-based line.
// A record ends at End's byte outside quotes: '\n' (a "\r" before it
// stripped) or, for CR, '\r'. Blank lines ("" or, for LF, "\r") are skipped
// but counted; a byte order mark at file offset 0 is skipped.
//
// When atEOF is false, the bytes after the last record end are left for the
// next call: consumed is the offset in buf just past the last line end that
// ended a record (0 if none did). When atEOF is true, the rest of buf is the
// last record (for LF, a trailing '\r' stripped) and consumed is len(buf).
// lines counts End's bytes in buf[:consumed], quoted ones included, so the
// next call starts at base+consumed on line line+lines.
//
// A record longer than MaxRecord is X_IMPORT_RECORD_TOO_LARGE, reported as
// soon as buf holds enough of it; a record that ends the file inside a quoted
// field is X_IMPORT_RECORD_INVALID. On an error, consumed and lines cover the
// records before the one refused.
func (s *Splitter) Scan(buf []byte, base, line int64, atEOF bool, fn RecordFunc) (consumed int, lines int64, err error) {
	w := walk{buf: buf, base: base, line: line, max: s.MaxRecord, fn: fn, lenient: s.Lenient, delim: s.delim(), eol: s.eol()}
	if w.max == 0 {
		w.max = DefaultMaxRecord
	}
	if base == 0 {
		if !atEOF && len(buf) < len(bom) && bytes.HasPrefix(bom, buf) {
			return 0, 0, nil // perhaps a BOM cut by the page edge
		}
		if bytes.HasPrefix(buf, bom) {
			w.start = len(bom)
		}
	}
	inQuote := false
	if s.Quote == 0 {
		err = w.plain()
	} else {
		inQuote, err = w.quoted(s.Quote)
	}
	if err == nil {
		err = w.tail(inQuote, atEOF)
	}
	return w.result(line, atEOF, err)
}

// delim answers the field delimiter Lenient looks for: Delim, or ','.
func (s *Splitter) delim() byte {
	if s.Delim == 0 {
		return ','
	}
	return s.Delim
}

// walk is the state of one Scan: the current record's start and line, and
// the line end bytes seen inside its quoted fields.
type walk struct {
	buf   []byte
	base  int64
	max   int
	fn    RecordFunc
	start int
	line  int64
	inner int64
	// lenient and delim are the Splitter's: see opening.
	lenient bool
	delim   byte
	// eol is the byte that ends a record: '\n' or '\r'.
	eol byte
}

// plain ends a record at every line end.
func (w *walk) plain() error {
	for nl := next(w.buf, w.start, w.eol); nl < len(w.buf); nl = next(w.buf, nl+1, w.eol) {
		if err := w.end(nl); err != nil {
			return err
		}
	}
	return nil
}

// quoted ends a record at every line end outside quotes. It keeps the position
// of the next line end and of the next quote and rescans only the one it passed,
// so a record without quotes costs one IndexByte. It answers whether buf ends
// inside a quoted field.
func (w *walk) quoted(quote byte) (bool, error) {
	buf, eol := w.buf, w.eol
	nl, q := next(buf, w.start, eol), next(buf, w.start, quote)
	q = w.opening(q, quote)
	for {
		if nl < q {
			if err := w.end(nl); err != nil {
				return false, err
			}
			nl = next(buf, nl+1, eol)
			continue
		}
		if q == len(buf) {
			return false, nil
		}
		q = next(buf, q+1, quote) // the closing quote
		for nl < q {
			w.inner++
			nl = next(buf, nl+1, eol)
		}
		if q == len(buf) {
			return true, nil
		}
		closing := q
		if q = next(buf, q+1, quote); q != closing+1 {
			q = w.opening(q, quote) // not a doubled quote
		}
	}
}

// opening answers the first quote at or after q that opens a quoted field:
// q itself when strict; when lenient, the first at a field's start.
func (w *walk) opening(q int, quote byte) int {
	for w.lenient && q < len(w.buf) && q != w.start && w.buf[q-1] != w.delim && w.buf[q-1] != w.eol {
		q = next(w.buf, q+1, quote)
	}
	return q
}

// end hands the record ending at the line end at nl to fn and moves past it.
// For LF, a "\r" before it is stripped; for CR, a record cannot end with an
// unquoted '\r'.
func (w *walk) end(nl int) error {
	rec := w.buf[w.start:nl]
	if n := len(rec); n > 0 && rec[n-1] == '\r' {
		rec = rec[:n-1]
	}
	if len(rec) > w.max {
		return tooLarge(w.base+int64(w.start), w.line, w.max)
	}
	if len(rec) > 0 {
		if err := w.fn(rec, w.base+int64(w.start), w.line); err != nil {
			return err
		}
	}
	w.line += w.inner + 1
	w.inner = 0
	w.start = nl + 1
	return nil
}

// tail handles the bytes after the last record end: too large already, the
// last record of the file, or left for the next page.
func (w *walk) tail(inQuote, atEOF bool) error {
	rest := w.buf[w.start:]
	n := len(rest)
	if !inQuote && n > 0 && rest[n-1] == '\r' {
		// LF: a "\r\n" split by the page edge, or a "\r" ending the file.
		// (For CR, such a '\r' would have ended a record.)
		n--
	}
	off := w.base + int64(w.start)
	switch {
	case n > w.max:
		return tooLarge(off, w.line, w.max)
	case !atEOF || n == 0:
		return nil
	case inQuote:
		return unclosed(off, w.line)
	}
	return w.fn(rest[:n], off, w.line)
}

// result answers Scan's consumed and lines: all of buf at EOF, else up to
// the current record's start, or nothing if no line end ended a record.
func (w *walk) result(line int64, atEOF bool, err error) (int, int64, error) {
	switch {
	case err == nil && atEOF:
		return len(w.buf), w.line + w.inner - line, nil
	case w.line == line:
		return 0, 0, err
	}
	return w.start, w.line - line, err
}

// next answers the index of the first c in buf at or after from, or len(buf).
func next(buf []byte, from int, c byte) int {
	if i := bytes.IndexByte(buf[from:], c); i >= 0 {
		return from + i
	}
	return len(buf)
}
