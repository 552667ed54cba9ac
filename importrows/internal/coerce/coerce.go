package coerce

import (
	"github.com/pipekit/pipe/errcode"
)

// Kind is what an input value is before coercion.
type Kind uint8

const (
	// Null is an absent value: an unquoted empty CSV field, a JSON null.
	Null Kind = iota
	// String is text: a CSV field, a JSON string (unescaped).
	String
	// Number is the text of a JSON number.
	Number
	// Bool is a JSON true or false, held in Cell.Bool.
	Bool
	// JSON is the raw text of a JSON object or array.
	JSON
)

// A Cell is one input value before coercion. Bytes holds the value of a
// String, Number or JSON cell; coercion never retains it. Raw holds, for a
// String cell read from a JSON document, the string as it stood there —
// quotes and escapes included — which is what a json or jsonb column takes:
// a JSON string stays a JSON string.
type Cell struct {
	Kind  Kind
	Bytes []byte
	Bool  bool
	Raw   []byte
}

// IsNull reports whether c coerces to NULL for t: a Null cell always does,
// and so does a String cell of nothing but ASCII whitespace for every type
// but text, character varying and character.
func (t Type) IsNull(c Cell) bool {
	switch c.Kind {
	case Null:
		return true
	case String:
		return !t.textual() && len(trimSpace(c.Bytes)) == 0
	}
	return false
}

// AppendCSV coerces c to t and appends it to dst as one field of COPY's CSV
// format, in the text form PostgreSQL's input function for t accepts: NULL
// as nothing (an unquoted empty field); a value quoted, with quotes doubled,
// when it is empty or holds a comma, a quote, a line break or is exactly
// \. (the end-of-data marker); bare otherwise. A refused cell answers dst
// unchanged and X_IMPORT_FIELD_INVALID; an accepted one, code "". It does
// not allocate when dst has room.
func (t Type) AppendCSV(dst []byte, c Cell) ([]byte, errcode.Code) {
	if t.IsNull(c) {
		return dst, ""
	}
	out, ok := t.appendText(dst, c)
	if !ok {
		return dst, errcode.ImportFieldInvalid
	}
	return quoteCSV(out, len(dst)), ""
}

// Value coerces c to t and answers it as a Go value: nil for NULL; int64
// for every integer width; string for text, character types and numeric
// (numeric in PostgreSQL's canonical text, rounded to the declared scale,
// so no precision is lost); float64 for real and double precision; bool;
// uuid.UUID; time.Time in UTC for date (midnight), timestamp with time zone
// (the instant) and timestamp without time zone (the wall time);
// time.Duration since midnight for time (infinity as the string
// "infinity" or "-infinity"); json.RawMessage for json and jsonb;
// []byte for bytea; []any of the element values for arrays. A refused cell
// answers X_IMPORT_FIELD_INVALID.
func (t Type) Value(c Cell) (any, errcode.Code) {
	if t.IsNull(c) {
		return nil, ""
	}
	v, ok := t.value(c)
	if !ok {
		return nil, errcode.ImportFieldInvalid
	}
	return v, ""
}

// appendText appends c's PostgreSQL text form, unquoted; c is not NULL.
func (t Type) appendText(dst []byte, c Cell) ([]byte, bool) {
	if t.array {
		return t.appendArray(dst, c)
	}
	switch t.base {
	case text, varchar, bpchar, unknown:
		return t.appendString(dst, c)
	case int2, int4, int8:
		return t.appendInt(dst, c)
	case numeric:
		return t.appendNumeric(dst, c)
	case float4, float8:
		return t.appendFloat(dst, c)
	case boolean:
		return appendBool(dst, c)
	case uuidType:
		return appendUUID(dst, c)
	case date, timestamptz, timestamp, timeOfDay:
		return t.appendTime(dst, c)
	case jsonType, jsonb:
		return t.appendJSON(dst, c)
	case bytea:
		return appendBytea(dst, c)
	}
	return dst, false
}

// value answers c as a Go value; c is not NULL.
func (t Type) value(c Cell) (any, bool) {
	if t.array {
		return t.arrayValue(c)
	}
	switch t.base {
	case text, varchar, bpchar, unknown:
		return t.stringValue(c)
	case int2, int4, int8:
		return t.intValue(c)
	case numeric:
		return t.numericValue(c)
	case float4, float8:
		return t.floatValue(c)
	case boolean:
		return boolValue(c)
	case uuidType:
		return uuidValue(c)
	case date, timestamptz, timestamp, timeOfDay:
		return t.timeValue(c)
	case jsonType, jsonb:
		return t.jsonValue(c)
	case bytea:
		return byteaValue(c)
	}
	return nil, false
}

// scalar answers the trimmed text of a String cell and the text of a
// Number cell; other kinds are refused.
func scalar(c Cell) ([]byte, bool) {
	switch c.Kind {
	case String:
		return trimSpace(c.Bytes), true
	case Number:
		return c.Bytes, true
	}
	return nil, false
}

// trimSpace trims ASCII whitespace from both ends of b.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
