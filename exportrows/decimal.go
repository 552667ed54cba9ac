package exportrows

import (
	"encoding/binary"
	"math/bits"

	"github.com/parquet-go/parquet-go"

	"github.com/pipekit/pipe/errcode"
)

// decimalValue answers the numeric text v of column c as a Parquet
// DECIMAL(c.prec, c.scale): the integer v × 10^scale, in an INT32, an
// INT64 or 16 big-endian two's complement bytes appended to *scratch. NaN
// and Infinity, which a DECIMAL cannot hold, are X_EXPORT_VALUE_UNSUPPORTED.
func decimalValue(c *column, v []byte, scratch *[]byte) (parquet.Value, error) {
	hi, lo, neg, ok := unscaled(v, c.scale)
	if !ok {
		return parquet.Value{}, errcode.New(errcode.ExportValueUnsupported,
			"export: column %s holds a value a Parquet DECIMAL cannot (NaN or Infinity)", c.Name).
			WithFix("export the column as text (cast it in a query), or choose csv or ndjson")
	}
	if neg {
		lo, hi = -lo, ^hi
		if lo == 0 {
			hi++
		}
	}
	switch {
	case c.prec <= 9:
		return parquet.Int32Value(int32(lo)), nil
	case c.prec <= 18:
		return parquet.Int64Value(int64(lo)), nil
	}
	b := binary.BigEndian.AppendUint64(*scratch, hi)
	b = binary.BigEndian.AppendUint64(b, lo)
	*scratch = b
	return parquet.FixedLenByteArrayValue(b[len(b)-16:]), nil
}

// unscaled reads [-]digits[.digits] as the 128-bit magnitude of the value
// × 10^scale, fractional digits past scale dropped (numeric(p,s) text has
// exactly s of them).
func unscaled(v []byte, scale int) (hi, lo uint64, neg, ok bool) {
	if len(v) > 0 && (v[0] == '-' || v[0] == '+') {
		neg, v = v[0] == '-', v[1:]
	}
	frac := -1 // digits read after the point; -1 before it
	for _, c := range v {
		switch {
		case c == '.' && frac < 0:
			frac = 0
			continue
		case c < '0' || c > '9':
			return 0, 0, false, false
		case frac >= scale:
			continue
		case frac >= 0:
			frac++
		}
		hi, lo = mulAdd(hi, lo, uint64(c-'0'))
	}
	for frac = max(frac, 0); frac < scale; frac++ {
		hi, lo = mulAdd(hi, lo, 0)
	}
	return hi, lo, neg, len(v) > 0
}

// mulAdd answers (hi, lo) × 10 + d.
func mulAdd(hi, lo, d uint64) (uint64, uint64) {
	carry, lo := bits.Mul64(lo, 10)
	lo, c := bits.Add64(lo, d, 0)
	return hi*10 + carry + c, lo
}
