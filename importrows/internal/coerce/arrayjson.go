package coerce

import (
	"unicode/utf16"
	"unicode/utf8"
)

// nextJSON reads the next element of a valid JSON array: a string as a
// String cell (unescaped, its JSON text as Raw: a json element keeps it),
// a number as a Number cell, true and false as a Bool cell, null as a Null
// cell, an object or array as a JSON cell.
func (e *elements) nextJSON(scratch []byte) (Cell, bool, bool) {
	if e.end {
		return Cell{}, false, true
	}
	s := e.src
	e.i = skip(s, e.i, isJSONSpace)
	if e.n == 0 && s[e.i] == ']' {
		return Cell{}, false, true
	}
	var c Cell
	start := e.i
	switch s[start] {
	case '"':
		e.i = jsonStringEnd(s, start)
		raw := s[start+1 : e.i-1]
		c = Cell{Kind: String, Bytes: raw, Raw: s[start:e.i]}
		for _, b := range raw {
			if b == '\\' {
				c.Bytes = jsonUnescape(scratch, raw)
				break
			}
		}
	case '{', '[':
		e.i = jsonContainerEnd(s, start)
		c = Cell{Kind: JSON, Bytes: s[start:e.i]}
	case 't':
		c, e.i = Cell{Kind: Bool, Bool: true}, start+4
	case 'f':
		c, e.i = Cell{Kind: Bool}, start+5
	case 'n':
		c, e.i = Cell{Kind: Null}, start+4
	default:
		e.i = skip(s, start, isNumberByte)
		c = Cell{Kind: Number, Bytes: s[start:e.i]}
	}
	e.i = skip(s, e.i, isJSONSpace)
	if s[e.i] == ',' {
		e.i++
	} else {
		e.end = true // the closing bracket
	}
	e.n++
	return c, true, true
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// jsonStringEnd answers the index past the valid JSON string at s[i].
func jsonStringEnd(s []byte, i int) int {
	for i++; s[i] != '"'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// jsonContainerEnd answers the index past the valid JSON object or array
// at s[i].
func jsonContainerEnd(s []byte, i int) int {
	depth := 0
	for ; ; i++ {
		switch s[i] {
		case '"':
			i = jsonStringEnd(s, i) - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
}

// jsonUnescape appends the valid JSON string body raw to dst, unescaped;
// an unpaired surrogate becomes U+FFFD, as encoding/json decodes it.
func jsonUnescape(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			dst = append(dst, raw[i])
			continue
		}
		i++
		switch c := raw[i]; c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(raw[i+1:])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					r2 = hex4(raw[i+3:])
				}
				if r = utf16.DecodeRune(r, r2); r != utf8.RuneError {
					i += 6
				}
			}
			dst = utf8.AppendRune(dst, r)
		default: // " \ /
			dst = append(dst, c)
		}
	}
	return dst
}
