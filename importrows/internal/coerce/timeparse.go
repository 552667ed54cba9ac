package coerce

import (
	"bytes"
	"math"
	"strconv"
	"time"
)

// clock is a parsed time of day and UTC offset.
type clock struct {
	hour, min, sec int
	micros         int64 // rounded as PostgreSQL rounds; may reach 1e6
	off            int   // seconds east of UTC
	hasOff         bool
}

// parseDate reads YYYY-MM-DD (a year of four digits or more), a real day
// from year 1, and answers the rest of b.
func parseDate(b []byte) (y, m, d int, rest []byte, ok bool) {
	i := digitsEnd(b, 0)
	if i < 4 || i > 7 || len(b) < i+6 || b[i] != '-' || b[i+3] != '-' {
		return 0, 0, 0, nil, false
	}
	y, ok1 := digits(b[:i])
	m, ok2 := digits(b[i+1 : i+3])
	d, ok3 := digits(b[i+4 : i+6])
	ok = ok1 && ok2 && ok3 && y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, time.Month(m))
	return y, m, d, b[i+6:], ok
}

// cutBC answers b without a trailing " BC" (any case, after any spaces)
// and whether it had one.
func cutBC(b []byte) ([]byte, bool) {
	n := len(b)
	if n < 4 || b[n-2]|0x20 != 'b' || b[n-1]|0x20 != 'c' || !isSpace(b[n-3]) {
		return b, false
	}
	return trimSpace(b[:n-3]), true
}

// infinity answers +1 or -1 for PostgreSQL's infinity, +infinity and
// -infinity in any case, and 0 for anything else.
func infinity(b []byte) int {
	sign := 1
	switch {
	case len(b) > 0 && b[0] == '-':
		sign, b = -1, b[1:]
	case len(b) > 0 && b[0] == '+':
		b = b[1:]
	}
	if !bytes.EqualFold(b, []byte("infinity")) {
		return 0
	}
	return sign
}

func daysIn(y int, m time.Month) int {
	if m == time.February && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 29
	}
	return int("\x1f\x1c\x1f\x1e\x1f\x1e\x1f\x1f\x1e\x1f\x1e\x1f"[m-1])
}

// parseClock reads HH:MM[:SS[.fraction]], HH up to 24, and, when zoned, an offset: Z, or
// a sign and HH, HH:MM, HHMM or HH:MM:SS, at most 15:59:59 as PostgreSQL
// allows.
func parseClock(b []byte, zoned bool) (clock, bool) {
	var k clock
	if len(b) < 5 || b[2] != ':' {
		return k, false
	}
	var ok1, ok2 bool
	k.hour, ok1 = digits(b[0:2])
	k.min, ok2 = digits(b[3:5])
	if !ok1 || !ok2 || k.hour > 24 || k.min > 59 { // callers check 24
		return k, false
	}
	b = b[5:]
	if len(b) >= 3 && b[0] == ':' {
		var ok bool
		if k.sec, ok = digits(b[1:3]); !ok || k.sec > 59 {
			return k, false
		}
		b = b[3:]
		if len(b) > 0 && b[0] == '.' {
			n := digitsEnd(b, 1)
			if n == 1 {
				return k, false
			}
			k.micros, b = fracMicros(b[:n]), b[n:]
		}
	}
	if len(b) == 0 {
		return k, true
	}
	if !zoned {
		return k, false
	}
	k.hasOff = true
	if len(b) == 1 && (b[0] == 'Z' || b[0] == 'z') {
		return k, true
	}
	var ok bool
	k.off, ok = parseOffset(b)
	return k, ok
}

// fracMicros answers the microseconds of a fraction ".digits" as
// PostgreSQL computes them: the fraction read as a double, times a million,
// rounded half to even.
func fracMicros(frac []byte) int64 {
	if len(frac) <= 7 {
		n, _ := digits(frac[1:])
		for range 7 - len(frac) {
			n *= 10
		}
		return int64(n)
	}
	f, _ := strconv.ParseFloat(string(frac), 64)
	return int64(math.RoundToEven(f * 1e6))
}

func parseOffset(b []byte) (int, bool) {
	if len(b) < 3 || (b[0] != '+' && b[0] != '-') {
		return 0, false
	}
	h, ok := digits(b[1:3])
	m, s := 0, 0
	switch rest := b[3:]; {
	case len(rest) == 0:
	case len(rest) == 2:
		m, ok = digits(rest)
	case len(rest) == 3 && rest[0] == ':':
		m, ok = digits(rest[1:])
	case len(rest) == 6 && rest[0] == ':' && rest[3] == ':':
		var ok2 bool
		m, ok = digits(rest[1:3])
		s, ok2 = digits(rest[4:6])
		ok = ok && ok2
	default:
		return 0, false
	}
	if !ok || h > 15 || m > 59 || s > 59 {
		return 0, false
	}
	off := h*3600 + m*60 + s
	if b[0] == '-' {
		off = -off
	}
	return off, true
}

// digits reads b, all ASCII digits, as a number.
func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(b) > 0
}
