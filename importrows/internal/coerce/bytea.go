package coerce

import "encoding/hex"

// byteaOf answers the hex digits of c, a String cell in PostgreSQL's hex
// format: \x followed by pairs of hex digits in any case, nothing between
// them. The escape format is refused.
func byteaOf(c Cell) ([]byte, bool) {
	if c.Kind != String {
		return nil, false
	}
	b := trimSpace(c.Bytes)
	if len(b) < 2 || b[0] != '\\' || b[1] != 'x' || len(b)%2 != 0 {
		return nil, false
	}
	for _, ch := range b[2:] {
		if hexValue(ch) < 0 {
			return nil, false
		}
	}
	return b[2:], true
}

func hexValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// appendBytea appends \x and the digits in lowercase.
func appendBytea(dst []byte, c Cell) ([]byte, bool) {
	h, ok := byteaOf(c)
	if !ok {
		return dst, false
	}
	dst = append(dst, '\\', 'x')
	for _, ch := range h {
		if 'A' <= ch && ch <= 'F' {
			ch += 'a' - 'A'
		}
		dst = append(dst, ch)
	}
	return dst, true
}

func byteaValue(c Cell) (any, bool) {
	h, ok := byteaOf(c)
	if !ok {
		return nil, false
	}
	v := make([]byte, len(h)/2)
	_, err := hex.Decode(v, h)
	return v, err == nil
}
