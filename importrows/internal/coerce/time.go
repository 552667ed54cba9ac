package coerce

import (
	"strconv"
	"time"
)

// pgEpoch is PostgreSQL's timestamp epoch, 2000-01-01 UTC, in Unix
// microseconds: typmod rounding goes half away from it.
const pgEpoch = 946684800_000000

// momentOf reads c as a date, a timestamp or a timestamp with time zone,
// answering its wall time (located in UTC) and the offset, in seconds, the
// wall time is at. A date is YYYY-MM-DD; a timestamp is a date, or a date,
// then T, t or a space, then a time of day; a timestamp with time zone may
// end in an offset (none is UTC), a timestamp without one may not.
func (t Type) momentOf(c Cell) (wall time.Time, off int, ok bool) {
	if c.Kind != String {
		return wall, 0, false
	}
	b, bc := cutBC(trimSpace(c.Bytes))
	y, m, d, rest, ok := parseDate(b)
	if !ok {
		return wall, 0, false
	}
	if bc {
		y = 1 - y // 1 BC is the year 0
	}
	var k clock
	if len(rest) > 0 {
		if t.base == date || (rest[0] != 'T' && rest[0] != 't' && rest[0] != ' ') {
			return wall, 0, false
		}
		if k, ok = parseClock(rest[1:], t.base == timestamptz); !ok || k.hour > 23 {
			return wall, 0, false
		}
	}
	wall = time.Date(y, time.Month(m), d, k.hour, k.min, k.sec, 0, time.UTC).Add(time.Duration(k.micros) * time.Microsecond)
	if t.mod >= 0 && t.mod < 6 {
		us := roundMicros(wall.UnixMicro()-int64(k.off)*1e6-pgEpoch, int(t.mod))
		wall = time.UnixMicro(us + pgEpoch + int64(k.off)*1e6).UTC()
	}
	return wall, k.off, t.inRange(wall.Add(-time.Duration(k.off) * time.Second))
}

// The range PostgreSQL stores: from 4714-11-24 BC (Julian day 0) to
// 5874897-12-31 for a date, 294276-12-31 23:59:59.999999 (UTC) for a
// timestamp.
var (
	firstDay      = time.Date(-4713, 11, 24, 0, 0, 0, 0, time.UTC)
	lastDay       = time.Date(5874897, 12, 31, 0, 0, 0, 0, time.UTC)
	lastTimestamp = time.Date(294276, 12, 31, 23, 59, 59, 999999000, time.UTC)
)

// inRange reports whether the instant (a fraction rounded, a date's
// midnight) is one t stores.
func (t Type) inRange(at time.Time) bool {
	last := lastTimestamp
	if t.base == date {
		last = lastDay
	}
	return !at.Before(firstDay) && !at.After(last)
}

// roundMicros rounds us to p fractional second digits, half away from
// zero, as PostgreSQL applies a timestamp's or a time's precision.
func roundMicros(us int64, p int) int64 {
	scale := int64(1)
	for range 6 - p {
		scale *= 10
	}
	if us < 0 {
		return -((-us + scale/2) / scale * scale)
	}
	return (us + scale/2) / scale * scale
}

// microsOfDay reads c as a time of day, HH:MM[:SS[.fraction]] from
// 00:00:00 to 24:00:00, answering microseconds since midnight.
func (t Type) microsOfDay(c Cell) (int64, bool) {
	if c.Kind != String {
		return 0, false
	}
	k, ok := parseClock(trimSpace(c.Bytes), false)
	if k.hour == 24 && (k.min > 0 || k.sec > 0 || k.micros > 0) {
		return 0, false // 24:00:00 is the end of the day; past it is not
	}
	us := int64(k.hour*3600+k.min*60+k.sec)*1e6 + k.micros
	if t.mod >= 0 {
		us = roundMicros(us, int(t.mod))
	}
	return us, ok
}

// appendTime appends a date as YYYY-MM-DD, a timestamp as
// YYYY-MM-DDTHH:MM:SS[.ffffff], a timestamp with time zone as that and its
// offset (Z, or ±HH:MM[:SS]), a time as HH:MM:SS[.ffffff].
func (t Type) appendTime(dst []byte, c Cell) ([]byte, bool) {
	if t.base == timeOfDay {
		us, ok := t.microsOfDay(c)
		if !ok {
			return dst, false
		}
		return appendClock(dst, us), true
	}
	if inf := infinity(trimSpace(c.Bytes)); inf != 0 && c.Kind == String {
		if inf < 0 {
			dst = append(dst, '-')
		}
		return append(dst, "infinity"...), true
	}
	wall, off, ok := t.momentOf(c)
	if !ok {
		return dst, false
	}
	y, m, d := wall.Date()
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	if y < 10000 {
		dst = append2(append2(dst, y/100), y%100)
	} else {
		dst = strconv.AppendInt(dst, int64(y), 10)
	}
	dst = append2(append(dst, '-'), int(m))
	dst = append2(append(dst, '-'), d)
	if t.base != date {
		h, mi, sec := wall.Clock()
		us := int64(h*3600+mi*60+sec)*1e6 + int64(wall.Nanosecond()/1000)
		dst = appendClock(append(dst, 'T'), us)
		if t.base == timestamptz {
			dst = appendOffset(dst, off)
		}
	}
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst, true
}

// appendClock appends HH:MM:SS and, when us has any, the fraction without
// trailing zeros.
func appendClock(dst []byte, us int64) []byte {
	s := int(us / 1e6)
	dst = append2(dst, s/3600)
	dst = append2(append(dst, ':'), s/60%60)
	dst = append2(append(dst, ':'), s%60)
	frac := us % 1e6
	if frac == 0 {
		return dst
	}
	dst = append(dst, '.')
	for div := int64(1e5); frac > 0; div /= 10 {
		dst = append(dst, byte('0'+frac/div))
		frac %= div
	}
	return dst
}

// appendOffset appends Z, or ±HH:MM with :SS when it has seconds.
func appendOffset(dst []byte, off int) []byte {
	if off == 0 {
		return append(dst, 'Z')
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	dst = append2(append(dst, sign), off/3600)
	dst = append2(append(dst, ':'), off/60%60)
	if off%60 != 0 {
		dst = append2(append(dst, ':'), off%60)
	}
	return dst
}

// append2 appends n, 0 to 99, as two digits.
func append2(dst []byte, n int) []byte {
	return append(dst, byte('0'+n/10), byte('0'+n%10))
}

// timeValue answers a date or timestamp as a time.Time in UTC (a
// timestamp with time zone as its instant), a time as a time.Duration;
// infinity, which no time.Time holds, as the string PostgreSQL reads.
func (t Type) timeValue(c Cell) (any, bool) {
	if t.base != timeOfDay && c.Kind == String && infinity(trimSpace(c.Bytes)) != 0 {
		b, _ := t.appendTime(nil, c)
		return string(b), true
	}
	if t.base == timeOfDay {
		us, ok := t.microsOfDay(c)
		return time.Duration(us) * time.Microsecond, ok
	}
	wall, off, ok := t.momentOf(c)
	return wall.Add(-time.Duration(off) * time.Second), ok
}
