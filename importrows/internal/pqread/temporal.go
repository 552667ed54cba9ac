package pqread

import (
	"encoding/binary"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go"
)

const (
	nanosPerDay = int64(24 * time.Hour)
	// julianUnixEpoch is the Julian day number of 1970-01-01.
	julianUnixEpoch = 2440588
)

func convDate(dst []byte, v parquet.Value) ([]byte, Kind) {
	dst, bc := appendDate(dst, int64(v.Int32()))
	return appendBC(dst, bc), String
}

// appendBC appends " BC" when bc, as PostgreSQL writes the years before 1.
func appendBC(dst []byte, bc bool) []byte {
	if bc {
		return append(dst, " BC"...)
	}
	return dst
}

// timestampConverter reads TIMESTAMP(unit, utc) over INT64.
func timestampConverter(unit time.Duration, utc bool, kind parquet.Kind) converter {
	if kind != parquet.Int64 || unit <= 0 {
		return nil
	}
	perDay, scale := nanosPerDay/int64(unit), int64(unit)
	return func(dst []byte, v parquet.Value) ([]byte, Kind) {
		days, rem := floorDiv(v.Int64(), perDay)
		return appendTimestamp(dst, days, rem*scale, utc), String
	}
}

// timeConverter reads TIME(unit) over INT32 (millis) or INT64.
func timeConverter(unit time.Duration, kind parquet.Kind) converter {
	scale := int64(unit)
	switch kind {
	case parquet.Int32:
		return func(dst []byte, v parquet.Value) ([]byte, Kind) {
			return appendClock(dst, int64(v.Int32())*scale), String
		}
	case parquet.Int64:
		return func(dst []byte, v parquet.Value) ([]byte, Kind) {
			return appendClock(dst, v.Int64()*scale), String
		}
	}
	return nil
}

// convInt96 reads a legacy Impala timestamp: nanoseconds of the day, then the
// Julian day, little-endian.
func convInt96(dst []byte, v parquet.Value) ([]byte, Kind) {
	i96 := v.Int96()
	nanos := uint64(i96[1])<<32 | uint64(i96[0])
	days := int64(i96[2]) - julianUnixEpoch + int64(nanos/uint64(nanosPerDay))
	return appendTimestamp(dst, days, int64(nanos%uint64(nanosPerDay)), true), String
}

// convInterval reads a legacy INTERVAL (months, days, milliseconds as
// little-endian uint32) as ISO 8601.
func convInterval(dst []byte, v parquet.Value) ([]byte, Kind) {
	b := v.ByteArray()
	ms := int64(binary.LittleEndian.Uint32(b[8:]))
	dst = append(dst, 'P')
	dst = strconv.AppendUint(dst, uint64(binary.LittleEndian.Uint32(b)), 10)
	dst = append(dst, 'M')
	dst = strconv.AppendUint(dst, uint64(binary.LittleEndian.Uint32(b[4:])), 10)
	dst = append(dst, "DT"...)
	dst = strconv.AppendInt(dst, ms/1000, 10)
	dst = appendFraction(dst, ms%1000*int64(time.Millisecond))
	return append(dst, 'S'), String
}

// appendTimestamp writes day days after 1970-01-01 at nanos into the day as
// RFC 3339, with "Z" when utc, and " BC" after a year before 1.
func appendTimestamp(dst []byte, days, nanos int64, utc bool) []byte {
	dst, bc := appendDate(dst, days)
	dst = appendClock(append(dst, 'T'), nanos)
	if utc {
		dst = append(dst, 'Z')
	}
	return appendBC(dst, bc)
}

// appendDate writes the proleptic Gregorian date days after 1970-01-01 as
// YYYY-MM-DD (Howard Hinnant's civil_from_days), a year before 1 counted
// back from 1 BC as PostgreSQL does, and reports that it is BC.
func appendDate(dst []byte, days int64) ([]byte, bool) {
	era, doe := floorDiv(days+719468, 146097)
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day, month := doy-(153*mp+2)/5+1, mp+3
	if month > 12 {
		month -= 12
	}
	year := yoe + era*400
	if month <= 2 {
		year++
	}
	bc := year <= 0
	if bc {
		year = 1 - year
	}
	dst = appendYear(dst, year)
	dst = appendTwo(append(dst, '-'), month)
	return appendTwo(append(dst, '-'), day), bc
}

// appendYear writes year, 1 or more, in at least four digits.
func appendYear(dst []byte, year int64) []byte {
	for p := int64(1000); p > 1 && year < p; p /= 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, year, 10)
}

// appendClock writes nanos since midnight as HH:MM:SS with the fraction, if
// any, trimmed of trailing zeros.
func appendClock(dst []byte, nanos int64) []byte {
	secs := nanos / int64(time.Second)
	dst = appendTwo(dst, secs/3600)
	dst = appendTwo(append(dst, ':'), secs/60%60)
	dst = appendTwo(append(dst, ':'), secs%60)
	return appendFraction(dst, nanos%int64(time.Second))
}

// appendFraction writes ".fffffffff" trimmed, or nothing for zero.
func appendFraction(dst []byte, nanos int64) []byte {
	if nanos <= 0 {
		return dst
	}
	var buf [10]byte
	buf[0] = '.'
	n := 9
	for i := 9; i >= 1; i-- {
		buf[i] = byte('0' + nanos%10)
		nanos /= 10
		if buf[i] == '0' && n == i {
			n--
		}
	}
	return append(dst, buf[:n+1]...)
}

// appendTwo writes n with at least two digits.
func appendTwo(dst []byte, n int64) []byte {
	if n >= 0 && n < 100 {
		return append(dst, byte('0'+n/10), byte('0'+n%10))
	}
	return strconv.AppendInt(dst, n, 10)
}

// floorDiv answers the quotient rounded down and the remainder in [0, d).
func floorDiv(n, d int64) (q, r int64) {
	q, r = n/d, n%d
	if r < 0 {
		q, r = q-1, r+d
	}
	return q, r
}
