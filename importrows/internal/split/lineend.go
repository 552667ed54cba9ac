package split

import (
	"bytes"

	"github.com/pipekit/pipe/errcode"
)

// LineEnd is the byte that ends a record outside quotes. A file has one, as
// PostgreSQL's COPY reads it: the one its first line ends with (see
// [Splitter.Detect]).
type LineEnd byte

const (
	// LF ends a record at "\n", its "\r\n" read as one line end: Unix and
	// Windows files. A Splitter or FieldParser whose End is 0 reads LF.
	LF LineEnd = '\n'
	// CR ends a record at a bare "\r": classic Mac files. A "\n" is not a
	// line end: inside quotes it is data; outside, [FieldParser.Parse]
	// refuses its record.
	CR LineEnd = '\r'
)

// Detect answers the line end of a file whose first bytes are head: that of
// its first line, the first "\n", "\r\n" or bare "\r" outside quotes (a
// leading byte order mark skipped). known is false while head holds none of
// them and atEOF is false, or ends just after a "\r": more bytes decide, and
// end is LF. A file of one line without a line end reads alike either way:
// LF.
func (s *Splitter) Detect(head []byte, atEOF bool) (end LineEnd, known bool) {
	head = bytes.TrimPrefix(head, bom)
	quoted, closed := false, -2 // closed: where the last quoted field closed
	for i, c := range head {
		switch {
		case c == s.Quote && s.Quote != 0:
			if quoted {
				quoted, closed = false, i
			} else {
				quoted = !s.Lenient || i == 0 || head[i-1] == s.delim() || i == closed+1
			}
		case quoted || (c != '\n' && c != '\r'):
		case c == '\r' && i+1 == len(head) && !atEOF:
			return LF, false
		case c == '\r' && i+1 == len(head):
			return CR, true
		case c == '\r' && head[i+1] != '\n':
			return CR, true
		default:
			return LF, true
		}
	}
	return LF, atEOF
}

// eol answers the byte that ends a record: End's, or '\n'.
func (s *Splitter) eol() byte {
	if s.End == 0 {
		return '\n'
	}
	return byte(s.End)
}

// validEnd answers X_CONFIG_INVALID for a line end that is neither LF nor CR.
func validEnd(end LineEnd) error {
	switch end {
	case 0, LF, CR:
		return nil
	}
	return errcode.New(errcode.ConfigInvalid, "line end is neither LF nor CR").
		WithFix(`use split.LF (the default: "\n" or "\r\n") or split.CR (a bare "\r")`)
}

// strayLineFeed answers the fields of rec, a record of a file that ends its
// lines with a bare CR, or refuses the record when one of its unquoted
// fields holds a '\n': COPY fails such a file, pipe the record alone.
func strayLineFeed(rec []byte, fields []Field) ([]Field, error) {
	if bytes.IndexByte(rec, '\n') < 0 {
		return fields, nil
	}
	for i, f := range fields {
		if !f.Quoted && bytes.IndexByte(f.Value, '\n') >= 0 {
			return nil, badField(i+1, RuleStrayLineFeed, "a line feed outside quotes in a file whose lines end with a bare carriage return")
		}
	}
	return fields, nil
}
