package exportrows

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
	"time"
)

// appendText appends the text of one value of c read as raw: the text a
// CSV cell holds and the type's input function reads back. Values read as
// text are their own text.
func appendText(dst []byte, c column, raw []byte) []byte {
	if !c.binary {
		return append(dst, raw...)
	}
	return appendScalar(dst, c.kind, raw)
}

// appendScalar appends the text of one binary value of kind k.
func appendScalar(dst []byte, k kind, raw []byte) []byte {
	switch k {
	case kBool:
		return strconv.AppendBool(dst, raw[0] != 0)
	case kInt2:
		return strconv.AppendInt(dst, int64(int16(binary.BigEndian.Uint16(raw))), 10)
	case kInt4:
		return strconv.AppendInt(dst, int64(int32(binary.BigEndian.Uint32(raw))), 10)
	case kInt8:
		return strconv.AppendInt(dst, int64(binary.BigEndian.Uint64(raw)), 10)
	case kFloat4:
		return appendFloat(dst, float64(math.Float32frombits(binary.BigEndian.Uint32(raw))), 32)
	case kFloat8:
		return appendFloat(dst, math.Float64frombits(binary.BigEndian.Uint64(raw)), 64)
	case kUUID:
		return appendUUID(dst, raw)
	case kDate:
		return appendDate(dst, int32(binary.BigEndian.Uint32(raw)))
	case kTimestamp, kTimestamptz:
		return appendTimestamp(dst, int64(binary.BigEndian.Uint64(raw)), k == kTimestamptz)
	case kBytea:
		return hex.AppendEncode(append(dst, `\x`...), raw)
	}
	return append(dst, raw...) // text
}

// appendFloat appends f as the shortest text that reads back exactly:
// plain digits from 1e-4 to 1e21, an exponent beyond, and NaN, Infinity
// and -Infinity as PostgreSQL spells them.
func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	if a := math.Abs(f); a == 0 || a >= 1e-4 && a < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, bits)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

func appendUUID(dst, u []byte) []byte {
	dst = hex.AppendEncode(dst, u[0:4])
	dst = hex.AppendEncode(append(dst, '-'), u[4:6])
	dst = hex.AppendEncode(append(dst, '-'), u[6:8])
	dst = hex.AppendEncode(append(dst, '-'), u[8:10])
	return hex.AppendEncode(append(dst, '-'), u[10:16])
}

// The binary epochs: PostgreSQL counts from 2000-01-01.
const (
	pgEpochDays   = 10957 // days from 1970-01-01 to 2000-01-01
	pgEpochMicros = pgEpochDays * 86400 * 1_000_000
)

// appendDate appends a date as YYYY-MM-DD (BC years as PostgreSQL writes
// them, with " BC").
func appendDate(dst []byte, days int32) []byte {
	switch days {
	case math.MaxInt32:
		return append(dst, "infinity"...)
	case math.MinInt32:
		return append(dst, "-infinity"...)
	}
	t := time.Unix((int64(days)+pgEpochDays)*86400, 0).UTC()
	dst, bc := appendDay(dst, t)
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendTimestamp appends a timestamp as RFC 3339: UTC with Z for
// timestamptz, without an offset for timestamp, the fraction of a second
// without trailing zeros.
func appendTimestamp(dst []byte, us int64, utc bool) []byte {
	switch us {
	case math.MaxInt64:
		return append(dst, "infinity"...)
	case math.MinInt64:
		return append(dst, "-infinity"...)
	}
	sec, frac := us/1e6, us%1e6
	if frac < 0 {
		sec, frac = sec-1, frac+1e6
	}
	t := time.Unix(sec+pgEpochMicros/1e6, 0).UTC()
	dst, bc := appendDay(dst, t)
	h, m, s := t.Clock()
	dst = append2(append(dst, 'T'), h)
	dst = append2(append(dst, ':'), m)
	dst = append2(append(dst, ':'), s)
	if frac > 0 {
		dst = appendFraction(dst, frac)
	}
	if utc {
		dst = append(dst, 'Z')
	}
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendDay appends t's date; a year before 1 is written as PostgreSQL
// does, counted back from 1 BC, and reported.
func appendDay(dst []byte, t time.Time) ([]byte, bool) {
	y, mo, d := t.Date()
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	if y < 1000 {
		dst = append(dst, "000"[:3-digits(y)+1]...)
	}
	dst = strconv.AppendInt(dst, int64(y), 10)
	dst = append2(append(dst, '-'), int(mo))
	return append2(append(dst, '-'), d), bc
}

func digits(n int) int {
	switch {
	case n >= 100:
		return 3
	case n >= 10:
		return 2
	}
	return 1
}

func append2(dst []byte, n int) []byte { return append(dst, byte('0'+n/10), byte('0'+n%10)) }

// appendFraction appends .ffffff without trailing zeros; frac is 1..999999.
func appendFraction(dst []byte, frac int64) []byte {
	var b [7]byte
	b[0] = '.'
	for i := 6; i >= 1; i-- {
		b[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := 7
	for b[n-1] == '0' {
		n--
	}
	return append(dst, b[:n]...)
}
