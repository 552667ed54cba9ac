package coerce

import (
	"math"
	"strconv"
)

// floatOf reads c as a real (float4) or double precision: a decimal
// number with optional exponent, or NaN, Infinity, inf with optional sign
// in any case. A value out of range — too large, or nonzero but too small
// to be other than zero — is refused, as PostgreSQL refuses it.
func (t Type) floatOf(c Cell) (float64, bool) {
	b, ok := scalar(c)
	if !ok {
		return 0, false
	}
	switch specialNumber(b) {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	d, ok := parseDecimal(b)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(b), t.bits())
	if err != nil || (f == 0 && d.lead() < d.n()) {
		return 0, false
	}
	return f, true
}

func (t Type) bits() int {
	if t.base == float4 {
		return 32
	}
	return 64
}

// appendFloat appends the shortest text that reads back as the same
// float4 or float8, or PostgreSQL's NaN, Infinity, -Infinity.
func (t Type) appendFloat(dst []byte, c Cell) ([]byte, bool) {
	f, ok := t.floatOf(c)
	switch {
	case !ok:
		return dst, false
	case math.IsNaN(f):
		return append(dst, "NaN"...), true
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...), true
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...), true
	}
	return strconv.AppendFloat(dst, f, 'g', -1, t.bits()), true
}

func (t Type) floatValue(c Cell) (any, bool) {
	f, ok := t.floatOf(c)
	return f, ok
}
