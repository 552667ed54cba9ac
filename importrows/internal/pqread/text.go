package pqread

import (
	"encoding/hex"
	"encoding/json"
	"unicode/utf8"
)

// appendHex writes b in PostgreSQL's bytea hex form, "\x" and lowercase hex.
func appendHex(dst, b []byte) []byte {
	return hex.AppendEncode(append(dst, `\x`...), b)
}

// appendUUID writes the 16 bytes of b as 8-4-4-4-12 lowercase hex.
func appendUUID(dst, b []byte) []byte {
	dst = hex.AppendEncode(dst, b[:4])
	dst = hex.AppendEncode(append(dst, '-'), b[4:6])
	dst = hex.AppendEncode(append(dst, '-'), b[6:8])
	dst = hex.AppendEncode(append(dst, '-'), b[8:10])
	return hex.AppendEncode(append(dst, '-'), b[10:16])
}

// appendElement writes a converted value as a JSON array element or object
// value: numbers and booleans bare, JSON as it is when it is valid, anything
// else as a JSON string.
func appendElement(dst, text []byte, kind Kind) []byte {
	switch kind {
	case Null:
		return append(dst, "null"...)
	case Number, Bool:
		return append(dst, text...)
	case JSON:
		if json.Valid(text) {
			return append(dst, text...)
		}
	}
	return appendJSONString(dst, text)
}

// appendJSONString writes s as a JSON string. Control characters are
// escaped; a byte that is not UTF-8 becomes U+FFFD.
func appendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
		}
		dst = appendEscape(append(dst, s[start:i]...), c)
		i++
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}

// appendEscape writes the JSON escape of byte c: a quote, a backslash, a
// control character, or (for a byte of broken UTF-8) U+FFFD.
func appendEscape(dst []byte, c byte) []byte {
	const digits = "0123456789abcdef"
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, `\n`...)
	case '\r':
		return append(dst, `\r`...)
	case '\t':
		return append(dst, `\t`...)
	}
	if c >= utf8.RuneSelf {
		return append(dst, `\ufffd`...)
	}
	return append(dst, '\\', 'u', '0', '0', digits[c>>4], digits[c&0xf])
}
