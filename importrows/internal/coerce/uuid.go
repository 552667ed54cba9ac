package coerce

import "github.com/google/uuid"

// uuidOf reads c as a UUID: 32 hex digits in any case, bare or in the
// canonical 8-4-4-4-12 groups, optionally in braces — forms PostgreSQL
// accepts.
func uuidOf(c Cell) (uuid.UUID, bool) {
	var u uuid.UUID
	if c.Kind != String {
		return u, false
	}
	b := trimSpace(c.Bytes)
	if len(b) >= 2 && b[0] == '{' && b[len(b)-1] == '}' {
		b = b[1 : len(b)-1]
	}
	dashed := len(b) == 36
	if !dashed && len(b) != 32 {
		return u, false
	}
	for i, j := 0, 0; i < 16; i, j = i+1, j+2 {
		if dashed && (j == 8 || j == 13 || j == 18 || j == 23) {
			if b[j] != '-' {
				return u, false
			}
			j++
		}
		hi, lo := hexValue(b[j]), hexValue(b[j+1])
		if hi < 0 || lo < 0 {
			return u, false
		}
		u[i] = byte(hi<<4 | lo)
	}
	return u, true
}

// appendUUID appends the canonical lowercase 8-4-4-4-12 form.
func appendUUID(dst []byte, c Cell) ([]byte, bool) {
	u, ok := uuidOf(c)
	if !ok {
		return dst, false
	}
	const digits = "0123456789abcdef"
	for i, x := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, digits[x>>4], digits[x&15])
	}
	return dst, true
}

func uuidValue(c Cell) (any, bool) {
	u, ok := uuidOf(c)
	return u, ok
}
