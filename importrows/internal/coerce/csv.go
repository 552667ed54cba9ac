package coerce

import (
	"bytes"
	"slices"
)

// quoteCSV quotes dst[start:], a non-NULL value, for COPY's CSV format
// when it must be: when it is empty (a bare empty field is NULL), holds the
// delimiter, a quote or a line break, or is \. (the end-of-data marker).
// Quotes inside are doubled. The value is rewritten in place, from the end.
func quoteCSV(dst []byte, start int) []byte {
	v := dst[start:]
	if len(v) > 0 && !csvSpecial(v) {
		return dst
	}
	return quoteInPlace(dst, start, bytes.Count(v, []byte{'"'}), '"', isQuote)
}

func csvSpecial(v []byte) bool {
	for _, c := range v {
		if c == ',' || c == '"' || c == '\n' || c == '\r' {
			return true
		}
	}
	return len(v) == 2 && v[0] == '\\' && v[1] == '.'
}

func isQuote(c byte) bool { return c == '"' }

// quoteArrayElem quotes dst[start:], one element of an array literal, as
// PostgreSQL's array input reads it: when it is empty, spells NULL, or holds
// a brace, comma, quote, backslash or whitespace. Quotes and backslashes
// inside are escaped with a backslash.
func quoteArrayElem(dst []byte, start int) []byte {
	v := dst[start:]
	n, special := 0, len(v) == 0 || isNullWord(v)
	for _, c := range v {
		switch {
		case c == '"' || c == '\\':
			n++
			special = true
		case c == '{' || c == '}' || c == ',' || isSpace(c):
			special = true
		}
	}
	if !special {
		return dst
	}
	return quoteInPlace(dst, start, n, '\\', isArrayEscaped)
}

func isArrayEscaped(c byte) bool { return c == '"' || c == '\\' }

func isNullWord(v []byte) bool {
	return len(v) == 4 && v[0]|0x20 == 'n' && v[1]|0x20 == 'u' && v[2]|0x20 == 'l' && v[3]|0x20 == 'l'
}

// quoteInPlace wraps dst[start:] in double quotes, putting esc before each
// of its n bytes that escaped reports. It moves bytes from the end, so no
// byte is overwritten before it is read.
func quoteInPlace(dst []byte, start, n int, esc byte, escaped func(byte) bool) []byte {
	end := len(dst)
	dst = slices.Grow(dst, n+2)[:end+n+2]
	j := len(dst) - 1
	dst[j] = '"'
	for i := end - 1; i >= start; i-- {
		c := dst[i]
		j--
		dst[j] = c
		if escaped(c) {
			j--
			dst[j] = esc
		}
	}
	dst[start] = '"'
	return dst
}
