package coerce

import "bytes"

// appendNumeric appends c as numeric text in PostgreSQL's canonical form:
// NaN, Infinity or -Infinity, or the digits with as many fraction digits as
// the value's scale — the declared one, rounded to half away from zero as
// PostgreSQL rounds, or the written one for an unconstrained numeric.
func (t Type) appendNumeric(dst []byte, c Cell) ([]byte, bool) {
	b, ok := scalar(c)
	if !ok {
		return dst, false
	}
	if w := specialNumber(b); w != "" {
		// A declared precision holds NaN but no infinity.
		return append(dst, w...), t.mod < 0 || w == "NaN"
	}
	d, ok := parseDecimal(b)
	if !ok || !d.fitsNumeric() {
		return dst, false
	}
	if t.mod < 0 {
		return appendRounded(dst, &d, d.dscale()), true
	}
	// numeric(p,s) holds values that round to fewer than 10^(p-s).
	limit := int(t.mod - t.scale)
	if lo := d.lead(); lo < d.n() && d.pt()-lo > limit {
		return dst, false
	}
	start := len(dst)
	dst = appendRounded(dst, &d, int(t.scale))
	if w, nonzero := leadWeight(bytes.TrimPrefix(dst[start:], []byte{'-'})); nonzero && w+1 > limit {
		return dst[:start], false
	}
	return dst, true
}

func (t Type) numericValue(c Cell) (any, bool) {
	var buf [64]byte
	b, ok := t.appendNumeric(buf[:0], c)
	return string(b), ok
}

// specialNumber answers PostgreSQL's spelling of the special value b names
// (NaN, Infinity, -Infinity, inf and -inf in any case, infinities with an
// optional +), or "".
func specialNumber(b []byte) string {
	switch {
	case foldEq(b, "nan"):
		return "NaN"
	case foldEq(b, "infinity"), foldEq(b, "+infinity"), foldEq(b, "inf"), foldEq(b, "+inf"):
		return "Infinity"
	case foldEq(b, "-infinity"), foldEq(b, "-inf"):
		return "-Infinity"
	}
	return ""
}

// foldEq reports whether b is lower, an ASCII lowercase word, in any case.
func foldEq(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// appendRounded appends d rounded half away from zero to s digits after
// the point (s < 0 rounds to tens, hundreds, ...), with max(s, 0) fraction
// digits and no sign on zero.
func appendRounded(dst []byte, d *decimal, s int) []byte {
	pt, lo := d.pt(), d.lead()
	up := d.digit(pt+s) >= '5' // the first digit dropped
	top := 0                   // the weight of the first digit written
	if w := pt - 1 - lo; lo < d.n() && w >= -s {
		top = max(top, w)
	}
	if up {
		top = max(top, -s)
	}
	start := len(dst)
	if d.neg {
		dst = append(dst, '-')
	}
	num := len(dst)
	for w := top; w >= -max(s, 0); w-- {
		if w == -1 {
			dst = append(dst, '.')
		}
		c := byte('0')
		if w >= -s {
			c = d.digit(pt - 1 - w)
		}
		dst = append(dst, c)
	}
	if up {
		at := top + s // the position of weight -s
		if s > 0 {
			at++ // past the point
		}
		dst = carry(dst, num, num+at)
	}
	if d.neg {
		if _, nonzero := leadWeight(dst[num:]); !nonzero {
			dst = append(dst[:start], dst[num:]...)
		}
	}
	return dst
}

// carry adds one at dst[i], a digit of the number that starts at num.
func carry(dst []byte, num, i int) []byte {
	for ; i >= num; i-- {
		switch dst[i] {
		case '.':
		case '9':
			dst[i] = '0'
		default:
			dst[i]++
			return dst
		}
	}
	dst = append(dst, 0)
	copy(dst[num+1:], dst[num:])
	dst[num] = '1'
	return dst
}

// leadWeight answers the weight of the first nonzero digit of v, unsigned
// digits with an optional point, and whether there is one.
func leadWeight(v []byte) (int, bool) {
	point := bytes.IndexByte(v, '.')
	if point < 0 {
		point = len(v)
	}
	for i, c := range v {
		switch {
		case c == '0' || c == '.':
		case i < point:
			return point - 1 - i, true
		default:
			return point - i, true
		}
	}
	return 0, false
}
