package split

import (
	"bytes"

	"github.com/pipekit/pipe/errcode"
)

// Field is one field of a record.
type Field struct {
	// Value is the field's bytes: verbatim if unquoted; without its quotes
	// and with each doubled quote collapsed if quoted. A '\n' or "\r\n"
	// inside quotes is kept as is. Value is valid until the next Parse.
	Value []byte
	// Quoted reports whether the field was quoted, which tells an empty
	// unquoted field (NULL to an importer) from "" (an empty string).
	Quoted bool
}

// FieldParser splits CSV records into fields. The zero value splits on ','
// without quoting; set Quote to '"' for CSV. A FieldParser reuses its buffers
// from one Parse to the next, so it is not safe for concurrent use.
type FieldParser struct {
	// Delim separates fields: ',' (the default, when 0), ';', '\t' or '|'.
	Delim byte
	// Quote is the byte that quotes a field, usually '"'. 0 means fields are
	// never quoted and a quote is data. It must differ from Delim.
	Quote byte
	// Lenient keeps a quote inside an unquoted field as data, as Python's
	// csv module and DuckDB do: 37°36'37.8"N is one field, quote and all. A
	// field that starts with a quote is still quoted by RFC 4180: it must be
	// closed, and only the delimiter or the record's end may follow its
	// closing quote. False (the default) refuses such a quote.
	Lenient bool
	// End is the file's line end: with CR, a '\n' in an unquoted field
	// refuses the record. LF (the default, when 0) passes it as data, as a
	// [Splitter] with LF never leaves one unquoted in a record.
	End LineEnd

	fields []Field
	buf    []byte // unescaped quoted fields; never grows during a Parse
}

// Validate answers X_CONFIG_INVALID if p cannot split fields.
func (p *FieldParser) Validate() error {
	switch p.Delim {
	case 0, ',', ';', '\t', '|':
	default:
		return errcode.New(errcode.ConfigInvalid, "field delimiter is not one of , ; tab |").
			WithFix("use ',', ';', '\\t' or '|' as the delimiter")
	}
	if p.Quote != 0 && (p.Quote == p.delim() || p.Quote == '\n' || p.Quote == '\r') {
		return errcode.New(errcode.ConfigInvalid, "quote byte is the delimiter or a line terminator").
			WithFix(`use '"' as the quote byte, or 0 for none`)
	}
	return validEnd(p.End)
}

// Parse answers the fields of rec, a record as [Splitter.Scan] passes it. The
// slice and the fields' values are valid until the next Parse.
//
// A quote inside an unquoted field (unless Lenient), anything but the delimiter or the end
// after a closing quote, a quoted field that is not closed, or (End CR) a
// '\n' in an unquoted field is
// X_IMPORT_RECORD_INVALID with metadata field, the 1-based position of the
// field; the caller adds the record's byteOffset and line.
func (p *FieldParser) Parse(rec []byte) ([]Field, error) {
	p.fields = p.fields[:0]
	delim := p.delim()
	q := -1
	if p.Quote != 0 {
		q = bytes.IndexByte(rec, p.Quote)
	}
	if q < 0 {
		return p.done(rec, p.plain(rec, delim))
	}
	if cap(p.buf) < len(rec) {
		p.buf = make([]byte, 0, len(rec))
	}
	p.buf = p.buf[:0]
	for i := 0; ; {
		n := len(p.fields) + 1
		var end int
		var err error
		if q == i && q < len(rec) {
			end, err = p.quoted(rec, i, n)
			q = next(rec, end, p.Quote)
		} else {
			end, err = p.unquoted(rec, i, n, delim, q)
			if q < end {
				q = next(rec, end, p.Quote) // lenient: the quote was data
			}
		}
		switch {
		case err != nil:
			return nil, err
		case end == len(rec):
			return p.done(rec, p.fields)
		case rec[end] != delim:
			return nil, badField(n, RuleTextAfterQuote, "text after the closing quote")
		}
		i = end + 1
	}
}

// done answers the fields of rec, or (End CR) refuses a stray line feed.
// It inlines, so that LF pays one comparison a record.
func (p *FieldParser) done(rec []byte, fields []Field) ([]Field, error) {
	if p.End == CR {
		return strayLineFeed(rec, fields)
	}
	return fields, nil
}

func (p *FieldParser) delim() byte {
	if p.Delim == 0 {
		return ','
	}
	return p.Delim
}

// plain splits a record without quotes on every delimiter.
func (p *FieldParser) plain(rec []byte, delim byte) []Field {
	for {
		j := bytes.IndexByte(rec, delim)
		if j < 0 {
			return append(p.fields, Field{Value: rec[:len(rec):len(rec)]})
		}
		p.fields = append(p.fields, Field{Value: rec[:j:j]})
		rec = rec[j+1:]
	}
}

// unquoted adds the unquoted field n starting at rec[i] and answers where it
// ends: at the next delimiter or at len(rec). q is the next quote at or after
// i, or len(rec).
func (p *FieldParser) unquoted(rec []byte, i, n int, delim byte, q int) (int, error) {
	end := next(rec, i, delim)
	if q < end && !p.Lenient {
		return 0, badField(n, RuleBareQuote, "quote inside an unquoted field")
	}
	p.fields = append(p.fields, Field{Value: rec[i:end:end]})
	return end, nil
}

// quoted adds the quoted field n whose opening quote is rec[i] and answers
// the index just past its closing quote. Only a field with doubled quotes is
// copied (into p.buf, which has room for all of rec); others are sliced.
func (p *FieldParser) quoted(rec []byte, i, n int) (int, error) {
	from, copied := i+1, -1
	for {
		k := bytes.IndexByte(rec[from:], p.Quote)
		if k < 0 {
			return 0, badField(n, RuleUnclosedQuote, "quoted field is not closed")
		}
		k += from
		if k+1 < len(rec) && rec[k+1] == p.Quote {
			if copied < 0 {
				copied = len(p.buf)
			}
			p.buf = append(p.buf, rec[from:k+1]...)
			from = k + 2
			continue
		}
		value := rec[i+1 : k : k]
		if copied >= 0 {
			p.buf = append(p.buf, rec[from:k]...)
			value = p.buf[copied:len(p.buf):len(p.buf)]
		}
		p.fields = append(p.fields, Field{Value: value, Quoted: true})
		return k + 1, nil
	}
}
