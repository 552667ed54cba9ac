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
// from: a new range starts at the first record at least every bytes after
// the last range's start. It finds the records with Scan itself, a chunk
// of chunk bytes at a time (chunk must exceed MaxRecord by 2, as a page's
// chunk does), so a start is a record start exactly as the sequential read
// finds it — a line end inside quotes, or a quoted field longer than a
// range, cannot mislead it — and its line is the one the sequential read
// numbers it with. Memory is one chunk, whatever the file's size.
//
// A record that Scan refuses (too large, or an unclosed quote at the end)
// ends the cutting: the ranges found so far stand and the last one runs to
// the end, where its reader meets the refusal as the sequential read does.
// Only a read error is answered as an error.
func (s *Splitter) Cuts(read ReadFunc, from Mark, every int64, chunk int) ([]Mark, error) {
	marks := []Mark{from}
	next := from.Off + max(every, 1)
	fn := func(_ []byte, off, line int64) error {
		if off >= next {
			marks = append(marks, Mark{Off: off, Line: line})
			next = off + max(every, 1)
		}
		return nil
	}
	cur := from
	for {
		data, eof, err := read(cur.Off, chunk)
		if err != nil {
			return nil, err
		}
		consumed, lines, err := s.Scan(data, cur.Off, cur.Line, eof, fn)
		if err != nil || eof || consumed == 0 {
			return marks, nil
		}
		cur = Mark{Off: cur.Off + int64(consumed), Line: cur.Line + lines}
	}
}
