package pqread

import (
	"math"
	"math/big"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

func convInt32(dst []byte, v parquet.Value) ([]byte, Kind) {
	return strconv.AppendInt(dst, int64(v.Int32()), 10), Number
}

func convInt64(dst []byte, v parquet.Value) ([]byte, Kind) {
	return strconv.AppendInt(dst, v.Int64(), 10), Number
}

func convUint32(dst []byte, v parquet.Value) ([]byte, Kind) {
	return strconv.AppendUint(dst, uint64(v.Uint32()), 10), Number
}

func convUint64(dst []byte, v parquet.Value) ([]byte, Kind) {
	return strconv.AppendUint(dst, v.Uint64(), 10), Number
}

// intConverter reads INT(bits, signed) over INT32 or INT64.
func intConverter(lt *format.IntType, kind parquet.Kind) converter {
	switch {
	case kind == parquet.Int32 && lt.IsSigned:
		return convInt32
	case kind == parquet.Int32:
		return convUint32
	case kind == parquet.Int64 && lt.IsSigned:
		return convInt64
	case kind == parquet.Int64:
		return convUint64
	}
	return nil
}

func convFloat(dst []byte, v parquet.Value) ([]byte, Kind) {
	return appendFloat(dst, float64(v.Float()), 32)
}

func convDouble(dst []byte, v parquet.Value) ([]byte, Kind) {
	return appendFloat(dst, v.Double(), 64)
}

func convFloat16(dst []byte, v parquet.Value) ([]byte, Kind) {
	b := v.ByteArray()
	return appendFloat(dst, float64(float16(uint16(b[0])|uint16(b[1])<<8)), 32)
}

// appendFloat writes f in the shortest form that reads back as the same
// float of bits bits; the non-finite values are the Strings PostgreSQL reads.
func appendFloat(dst []byte, f float64, bits int) ([]byte, Kind) {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...), String
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...), String
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...), String
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits), Number
}

// float16 widens an IEEE 754 half-precision value (little-endian bits h).
func float16(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp, frac := uint32(h>>10)&0x1f, uint32(h&0x3ff)
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
	}
	f := float32(frac) / (1 << 24) // subnormal or zero: frac × 2^-24
	if sign != 0 {
		f = -f
	}
	return f
}

// decimalConverter reads DECIMAL(p, scale) over kind.
func decimalConverter(scale int, kind parquet.Kind) converter {
	switch kind {
	case parquet.Int32:
		return func(dst []byte, v parquet.Value) ([]byte, Kind) {
			return appendDecimalInt(dst, int64(v.Int32()), scale), Number
		}
	case parquet.Int64:
		return func(dst []byte, v parquet.Value) ([]byte, Kind) {
			return appendDecimalInt(dst, v.Int64(), scale), Number
		}
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return func(dst []byte, v parquet.Value) ([]byte, Kind) {
			return appendDecimalBytes(dst, v.ByteArray(), scale), Number
		}
	}
	return nil
}

// appendDecimalInt writes the unscaled value n with scale digits after the
// point.
func appendDecimalInt(dst []byte, n int64, scale int) []byte {
	abs := uint64(n)
	if n < 0 {
		dst, abs = append(dst, '-'), -abs
	}
	var digits [20]byte
	return placePoint(dst, strconv.AppendUint(digits[:0], abs, 10), scale)
}

// appendDecimalBytes writes the big-endian two's complement unscaled value b
// with scale digits after the point.
func appendDecimalBytes(dst []byte, b []byte, scale int) []byte {
	if len(b) <= 8 {
		var n int64
		if len(b) > 0 && b[0]&0x80 != 0 {
			n = -1
		}
		for _, c := range b {
			n = n<<8 | int64(c)
		}
		return appendDecimalInt(dst, n, scale)
	}
	n := new(big.Int).SetBytes(b)
	if b[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		dst = append(dst, '-')
		n.Neg(n)
	}
	return placePoint(dst, n.Append(nil, 10), scale)
}

// placePoint writes the digits of an unscaled value with scale digits after
// the point, padding with zeros; a negative scale multiplies by ten.
func placePoint(dst, digits []byte, scale int) []byte {
	switch {
	case scale <= 0:
		dst = append(dst, digits...)
		for i := 0; i < -scale && string(digits) != "0"; i++ {
			dst = append(dst, '0')
		}
		return dst
	case len(digits) > scale:
		dst = append(dst, digits[:len(digits)-scale]...)
		return append(append(dst, '.'), digits[len(digits)-scale:]...)
	}
	dst = append(dst, "0."...)
	for i := len(digits); i < scale; i++ {
		dst = append(dst, '0')
	}
	return append(dst, digits...)
}
