package coerce

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// jsonOf answers the JSON text of c for a json or jsonb column: a String
// cell read from JSON is the JSON string it was; any other String cell's
// text, trimmed, must be a JSON document (a CSV field, as COPY reads it); a
// JSON or Number cell is its text; a Bool cell is true or false. jsonb further refuses what its
// input refuses: \u0000, a lone surrogate escape, and numbers numeric
// cannot hold.
func (t Type) jsonOf(c Cell) ([]byte, bool) {
	var b []byte
	switch {
	case c.Kind == String && c.Raw != nil:
		b = c.Raw
	case c.Kind == String || c.Kind == JSON || c.Kind == Number:
		b = trimSpace(c.Bytes)
	case c.Kind == Bool:
		return boolText(c.Bool), true
	default:
		return nil, false
	}
	if !utf8.Valid(b) || !json.Valid(b) {
		return nil, false
	}
	return b, t.base != jsonb || jsonbSafe(b)
}

func (t Type) appendJSON(dst []byte, c Cell) ([]byte, bool) {
	b, ok := t.jsonOf(c)
	return append(dst, b...), ok
}

func (t Type) jsonValue(c Cell) (any, bool) {
	b, ok := t.jsonOf(c)
	return json.RawMessage(bytes.Clone(b)), ok
}

// jsonbSafe reports whether jsonb's input accepts b, a valid JSON text:
// whether its escapes name no NUL and pair their surrogates, and whether
// numeric holds each of its numbers.
func jsonbSafe(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			n, ok := jsonbString(b[i:])
			if !ok {
				return false
			}
			i += n - 1
		case c == '-' || ('0' <= c && c <= '9'):
			j := i + 1
			for j < len(b) && isNumberByte(b[j]) {
				j++
			}
			d, ok := parseDecimal(b[i:j])
			if !ok || !d.fitsNumeric() {
				return false
			}
			i = j - 1
		}
	}
	return true
}

func isNumberByte(c byte) bool {
	return ('0' <= c && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// jsonbString checks the escapes of the valid JSON string at the start of
// s and answers its length, quotes included.
func jsonbString(s []byte) (int, bool) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i + 1, true
		case '\\':
			if s[i+1] != 'u' {
				i++
				continue
			}
			r := hex4(s[i+2:])
			switch {
			case r == 0 || (r >= 0xdc00 && r <= 0xdfff):
				return 0, false
			case r >= 0xd800 && r <= 0xdbff:
				if len(s) < i+12 || s[i+6] != '\\' || s[i+7] != 'u' {
					return 0, false
				}
				if lo := hex4(s[i+8:]); lo < 0xdc00 || lo > 0xdfff {
					return 0, false
				}
				i += 6
			}
			i += 5
		}
	}
	return 0, false
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r = r<<4 | rune(hexValue(c))
	}
	return r
}
