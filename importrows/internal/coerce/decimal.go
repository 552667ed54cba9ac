package coerce

// decimal is a parsed decimal number: sign, digits as written (integer
// part ip, fraction fp) and exponent. Its digit k (0-based over ip then
// fp) has weight 10^(pt()-1-k).
type decimal struct {
	neg    bool
	ip, fp []byte
	exp    int
}

// maxExponent bounds the exponent parseDecimal accepts; PostgreSQL's
// numeric reads larger ones only for zero.
const maxExponent = 1_000_000

// parseDecimal reads [sign] digits [. [digits]] [e [sign] digits], or
// [sign] . digits with the same exponent: numeric's input syntax, of which
// JSON numbers are a part.
func parseDecimal(b []byte) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		d.neg = b[i] == '-'
		i++
	}
	j := digitsEnd(b, i)
	d.ip, i = b[i:j], j
	if i < len(b) && b[i] == '.' {
		j = digitsEnd(b, i+1)
		d.fp, i = b[i+1:j], j
	}
	if len(d.ip)+len(d.fp) == 0 {
		return d, false
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		e, n, ok := parseExponent(b[i+1:])
		if !ok {
			return d, false
		}
		d.exp, i = e, i+1+n
	}
	return d, i == len(b)
}

// parseExponent reads [sign] digits at the start of b, answering the
// exponent and the bytes read.
func parseExponent(b []byte) (int, int, bool) {
	i, neg := 0, false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	j := digitsEnd(b, i)
	if j == i {
		return 0, 0, false
	}
	e := 0
	for _, c := range b[i:j] {
		if e = e*10 + int(c-'0'); e > maxExponent {
			return 0, 0, false
		}
	}
	if neg {
		e = -e
	}
	return e, j, true
}

func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func (d *decimal) n() int  { return len(d.ip) + len(d.fp) }
func (d *decimal) pt() int { return len(d.ip) + d.exp }

// digit answers digit k, '0' outside the written digits.
func (d *decimal) digit(k int) byte {
	switch {
	case k < 0 || k >= d.n():
		return '0'
	case k < len(d.ip):
		return d.ip[k]
	}
	return d.fp[k-len(d.ip)]
}

// lead answers the index of the first nonzero digit, n() for zero.
func (d *decimal) lead() int {
	for k := range d.n() {
		if d.digit(k) != '0' {
			return k
		}
	}
	return d.n()
}

// dscale answers the scale PostgreSQL's numeric keeps for d as written.
func (d *decimal) dscale() int {
	return max(0, len(d.fp)-d.exp)
}

// Numeric's storage limits: digits before the point and after it.
const (
	numericMaxWeight = 131072
	numericMaxScale  = 16383
)

// fitsNumeric reports whether PostgreSQL's numeric input reads d without
// "value overflows numeric format".
func (d *decimal) fitsNumeric() bool {
	if d.dscale() > numericMaxScale {
		return false
	}
	lo := d.lead()
	return lo == d.n() || d.pt()-lo <= numericMaxWeight
}

// integer answers d as an int64 when it is integral and in range.
func (d *decimal) integer() (int64, bool) {
	lo, pt := d.lead(), d.pt()
	if lo == d.n() {
		return 0, true
	}
	if pt-lo > 19 {
		return 0, false
	}
	for k := max(pt, 0); k < d.n(); k++ {
		if d.digit(k) != '0' {
			return 0, false // a fraction
		}
	}
	var u uint64 // 19 digits cannot overflow it
	for k := lo; k < pt; k++ {
		u = u*10 + uint64(d.digit(k)-'0')
	}
	return signed(u, d.neg)
}

// signed answers ±u when it fits an int64.
func signed(u uint64, neg bool) (int64, bool) {
	if neg {
		return -int64(u), u <= 1<<63
	}
	return int64(u), u < 1<<63
}
