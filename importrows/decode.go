package importrows

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/coerce"
	"github.com/pipekit/pipe/importrows/internal/split"
)

// rowDecoder turns one record into one cell per plan column, or names why
// the record is refused.
type rowDecoder interface {
	cells(rec []byte, dst []coerce.Cell) ([]coerce.Cell, fault)
}

// fault is why a record is refused: its code, the field (a column's name
// or key, not its value) and, for a CSV record, the rule it broke.
type fault struct {
	field string
	code  errcode.Code
	rule  string
}

// ruleFieldCount is the rule of a CSV record with more or fewer fields
// than the file's columns.
const ruleFieldCount = "field-count"

// csvDecoder maps a CSV record's fields to the columns: the plan's columns
// are in the header's order, so field i is column i. An unquoted empty field
// is NULL; a quoted one ("") is an empty string.
type csvDecoder struct {
	parser split.FieldParser
	n      int
}

func (d *csvDecoder) cells(rec []byte, dst []coerce.Cell) ([]coerce.Cell, fault) {
	fields, err := d.parser.Parse(rec)
	if err != nil {
		f := fault{code: errcode.ImportRecordInvalid}
		if e, ok := errcode.As(err); ok {
			f.rule = e.Meta[split.MetaRule]
		}
		return nil, f
	}
	if len(fields) != d.n {
		return nil, fault{code: errcode.ImportRecordInvalid, rule: ruleFieldCount}
	}
	for _, f := range fields {
		if !f.Quoted && len(f.Value) == 0 {
			dst = append(dst, coerce.Cell{Kind: coerce.Null})
		} else {
			dst = append(dst, coerce.Cell{Kind: coerce.String, Bytes: f.Value})
		}
	}
	return dst, fault{}
}

// ndjsonDecoder maps an object's keys to the columns; a column the object
// lacks is NULL, a key that is not a column refuses the row. A line ends at
// LF (a CRLF's CR is stripped by the splitter); a bare CR is JSON's white
// space wherever it stands, so objects parted by bare CRs alone are one line,
// refused (or, past the record limit, too large).
type ndjsonDecoder struct {
	index map[string]int
	obj   map[string]json.RawMessage
}

func newNDJSONDecoder(cols []column) *ndjsonDecoder {
	d := &ndjsonDecoder{index: make(map[string]int, len(cols)), obj: map[string]json.RawMessage{}}
	for i, c := range cols {
		d.index[c.name] = i
	}
	return d
}

func (d *ndjsonDecoder) cells(rec []byte, dst []coerce.Cell) ([]coerce.Cell, fault) {
	clear(d.obj)
	rec = bytes.Trim(rec, " \t\r")
	if len(rec) == 0 || rec[0] != '{' || json.Unmarshal(rec, &d.obj) != nil {
		return nil, fault{code: errcode.ImportRecordInvalid, rule: "not-an-object"}
	}
	for range d.index {
		dst = append(dst, coerce.Cell{Kind: coerce.Null})
	}
	for k, raw := range d.obj {
		i, ok := d.index[k]
		if !ok {
			return nil, fault{field: fieldName(k), code: errcode.ImportFieldUnknown}
		}
		dst[i] = jsonCell(raw)
	}
	return dst, fault{}
}

// fieldName bounds a key from the file before it is reported: 63 bytes at
// most, cut where a character begins.
func fieldName(k string) string {
	if len(k) <= 63 {
		return k
	}
	n := 63
	for n > 0 && !utf8.RuneStart(k[n]) {
		n--
	}
	return k[:n]
}

// jsonCell reads one JSON value as a cell: a string unquoted, a number as
// its text, an object or array as its JSON.
func jsonCell(raw json.RawMessage) coerce.Cell {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return coerce.Cell{Kind: coerce.Null}
	case raw[0] == '"':
		var s string
		_ = json.Unmarshal(raw, &s) // valid: the object decoded
		return coerce.Cell{Kind: coerce.String, Bytes: []byte(s), Raw: raw}
	case string(raw) == "true" || string(raw) == "false":
		return coerce.Cell{Kind: coerce.Bool, Bool: raw[0] == 't'}
	case raw[0] == '{' || raw[0] == '[':
		return coerce.Cell{Kind: coerce.JSON, Bytes: raw}
	}
	return coerce.Cell{Kind: coerce.Number, Bytes: raw}
}
