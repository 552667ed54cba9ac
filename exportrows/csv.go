package exportrows

import "io"

// flushAt is how many encoded bytes the text encoders gather before they
// write them on.
const flushAt = 64 << 10

// csvEncoder writes RFC 4180 CSV: a header row, fields quoted when they
// hold a comma, a quote, a line break, nothing, or exactly \., quotes
// doubled; records end in \n. A NULL is an empty unquoted field, an empty
// string "" — as pipe's importer and PostgreSQL's COPY read them.
type csvEncoder struct {
	w    io.WriteCloser
	cols []column // the exported columns
	buf  []byte
}

func newCSVEncoder(w io.WriteCloser, cols []column) (*csvEncoder, error) {
	e := &csvEncoder{w: w, cols: exportedOf(cols), buf: make([]byte, 0, flushAt+flushAt/4)}
	for i, c := range e.cols {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendCSVText(e.buf, []byte(c.Name), false)
	}
	e.buf = append(e.buf, '\n')
	return e, nil
}

func (e *csvEncoder) row(vals [][]byte) error {
	b := e.buf
	for i := range e.cols {
		if i > 0 {
			b = append(b, ',')
		}
		if v := vals[i]; v != nil {
			b = e.cell(b, &e.cols[i], v)
		}
	}
	e.buf = append(b, '\n')
	if len(e.buf) >= flushAt {
		return e.flush()
	}
	return nil
}

// cell appends one non-NULL value. Free text (text columns and types pipe
// does not know) that begins as a formula gets the ' prefix.
func (e *csvEncoder) cell(b []byte, c *column, v []byte) []byte {
	if c.binary && c.kind != kText {
		return appendScalar(b, c.kind, v) // digits, dates, uuids, hex: never quoted
	}
	guard := c.kind.guarded() && len(v) > 0 && formulaStart(v[0])
	return appendCSVText(b, v, guard)
}

// formulaStart reports whether a cell beginning with c would run as a
// formula in a spreadsheet.
func formulaStart(c byte) bool {
	switch c {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// csvSpecial marks the bytes that make a field need quotes.
var csvSpecial = [256]bool{',': true, '"': true, '\n': true, '\r': true}

// appendCSVText appends v as one field, with the ' prefix if guard.
func appendCSVText(b, v []byte, guard bool) []byte {
	quoted := len(v) == 0 || len(v) == 2 && v[0] == '\\' && v[1] == '.'
	quotes := 0
	for _, c := range v {
		if csvSpecial[c] {
			quoted = true
			if c == '"' {
				quotes++
			}
		}
	}
	if !quoted {
		if guard {
			b = append(b, '\'')
		}
		return append(b, v...)
	}
	b = append(b, '"')
	if guard {
		b = append(b, '\'')
	}
	if quotes == 0 {
		b = append(b, v...)
	} else {
		for _, c := range v {
			if c == '"' {
				b = append(b, '"')
			}
			b = append(b, c)
		}
	}
	return append(b, '"')
}

func (e *csvEncoder) flush() error {
	_, err := e.w.Write(e.buf)
	e.buf = e.buf[:0]
	return err
}

func (e *csvEncoder) close() error {
	if err := e.flush(); err != nil {
		return err
	}
	return e.w.Close()
}

// exportedOf answers the columns written to the file.
func exportedOf(cols []column) []column {
	var out []column
	for _, c := range cols {
		if c.exported {
			out = append(out, c)
		}
	}
	return out
}
