package coerce

import (
	"math"
	"strconv"
)

// intOf reads c as an integer of t's width. A String cell is [sign] digits,
// as PostgreSQL's integer input reads it; a Number cell (JSON) may be any
// number of integral value (1.0, 1e3).
func (t Type) intOf(c Cell) (int64, bool) {
	var n int64
	var ok bool
	switch c.Kind {
	case String:
		n, ok = parseInteger(trimSpace(c.Bytes))
	case Number:
		var d decimal
		if d, ok = parseDecimal(c.Bytes); ok {
			n, ok = d.integer()
		}
	}
	if !ok {
		return 0, false
	}
	switch t.base {
	case int2:
		return n, n >= math.MinInt16 && n <= math.MaxInt16
	case int4:
		return n, n >= math.MinInt32 && n <= math.MaxInt32
	}
	return n, true
}

// parseInteger reads [sign] digits into an int64.
func parseInteger(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' || u > (1<<63)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	return signed(u, neg)
}

func (t Type) appendInt(dst []byte, c Cell) ([]byte, bool) {
	n, ok := t.intOf(c)
	if !ok {
		return dst, false
	}
	return strconv.AppendInt(dst, n, 10), true
}

func (t Type) intValue(c Cell) (any, bool) {
	n, ok := t.intOf(c)
	return n, ok
}
