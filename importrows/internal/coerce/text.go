package coerce

import (
	"bytes"
	"unicode/utf8"
)

// textOf answers the text a text, character varying or character column
// stores for c: a String cell verbatim, a Number or JSON cell's JSON text,
// a Bool cell as true or false. It must be valid UTF-8 without NUL (which
// PostgreSQL's text cannot hold) and, when the type declares a length, no
// longer than that many characters.
func (t Type) textOf(c Cell) ([]byte, bool) {
	var b []byte
	switch c.Kind {
	case String, Number, JSON:
		b = c.Bytes
	case Bool:
		b = boolText(c.Bool)
	default:
		return nil, false
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return nil, false
	}
	if t.mod >= 0 && len(b) > int(t.mod) && utf8.RuneCount(b) > int(t.mod) {
		return nil, false
	}
	return b, true
}

func (t Type) appendString(dst []byte, c Cell) ([]byte, bool) {
	b, ok := t.textOf(c)
	return append(dst, b...), ok
}

func (t Type) stringValue(c Cell) (any, bool) {
	b, ok := t.textOf(c)
	return string(b), ok
}

// trueText and falseText are read only.
var trueText, falseText = []byte("true"), []byte("false")

func boolText(v bool) []byte {
	if v {
		return trueText
	}
	return falseText
}
