package split

// Mark is a record start: its byte offset in the file and its 1-based line,
// counted as [Splitter.Scan] counts lines (every line end, quoted ones too).
type Mark struct {
	Off  int64 `json:"off"`
	Line int64 `json:"line"`
}

// ReadFunc answers up to n bytes of the file from off and whether the file
// ends within them. The slice need only be valid until the next call.
type ReadFunc func(off int64, n int) (data []byte, eof bool, err error)

// Cuts answers the starts of the ranges a file splits into, the first being
// from: a new range starts at the first record start at least every bytes
// after the last one. It finds them with Scan itself, a chunk of chunk bytes
// at a time (chunk must exceed MaxRecord by 2, as a page's chunk does), so a
// start is a record start exactly as the sequential read finds it: a line
// end inside quotes, or a quoted field longer than a range, cannot mislead
// it, and its line is the line the sequential read numbers it with. Memory
// is one chunk, whatever the file's size.
//
// A record that Scan refuses (too large, or an unclosed quote at the end)
// ends the cutting: the ranges found so far stand and the last one runs to
// the end, where its reader meets the refusal as the sequential read does.
// Only a read error is answered as an error.
func (s *Splitter) Cuts(read ReadFunc, from Mark, every int64, chunk int) ([]Mark, error) {
	marks := []Mark{from}
	noop := func([]byte, int64, int64) error { return nil }
	cur := from
	for {
		data, eof, err := read(cur.Off, chunk)
		if err != nil {
			return nil, err
		}
		consumed, lines, err := s.Scan(data, cur.Off, cur.Line, eof, noop)
		if err != nil || eof || consumed == 0 {
			return trimEnd(marks, cur, eof && len(data) == 0), nil
		}
		cur = Mark{Off: cur.Off + int64(consumed), Line: cur.Line + lines}
		if cur.Off-marks[len(marks)-1].Off >= every {
			marks = append(marks, cur)
		}
	}
}

// trimEnd drops a last mark at the file's very end: it would start an empty
// range.
func trimEnd(marks []Mark, end Mark, atEnd bool) []Mark {
	if atEnd && len(marks) > 1 && marks[len(marks)-1] == end {
		return marks[:len(marks)-1]
	}
	return marks
}
