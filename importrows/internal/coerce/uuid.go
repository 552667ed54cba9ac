package coerce

import (
	"encoding/hex"

	"github.com/google/uuid"
)

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
	switch len(b) {
	case 32:
		_, err := hex.Decode(u[:], b)
		return u, err == nil
	case 36:
		if b[8] != '-' || b[13] != '-' || b[18] != '-' || b[23] != '-' {
			return u, false
		}
		for i, g := range [...][2]int{{0, 8}, {9, 13}, {14, 18}, {19, 23}, {24, 36}} {
			at := [...]int{0, 4, 6, 8, 10}[i]
			if _, err := hex.Decode(u[at:], b[g[0]:g[1]]); err != nil {
				return u, false
			}
		}
		return u, true
	}
	return u, false
}

// appendUUID appends the canonical lowercase 8-4-4-4-12 form.
func appendUUID(dst []byte, c Cell) ([]byte, bool) {
	u, ok := uuidOf(c)
	if !ok {
		return dst, false
	}
	for i, g := range [...][2]int{{0, 4}, {4, 6}, {6, 8}, {8, 10}, {10, 16}} {
		if i > 0 {
			dst = append(dst, '-')
		}
		dst = hex.AppendEncode(dst, u[g[0]:g[1]])
	}
	return dst, true
}

func uuidValue(c Cell) (any, bool) {
	u, ok := uuidOf(c)
	return u, ok
}
