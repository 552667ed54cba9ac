package pqread_test

import (
	"bytes"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/pqread"
)

var (
	noon   = time.Date(2026, 3, 1, 12, 0, 0, 500_000_000, time.UTC)
	uuid16 = []byte{0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0}
)

func str(s string) parquet.Value     { return parquet.ByteArrayValue([]byte(s)) }
func fixed(b ...byte) parquet.Value  { return parquet.FixedLenByteArrayValue(b) }
func days(t time.Time) parquet.Value { return parquet.Int32Value(int32(t.Unix() / 86400)) }

// twosComplement answers n as big-endian two's complement of size bytes.
func twosComplement(n *big.Int, size int) []byte {
	if n.Sign() < 0 {
		n = new(big.Int).Add(n, new(big.Int).Lsh(big.NewInt(1), uint(8*size)))
	}
	return n.FillBytes(make([]byte, size))
}

func bigInt(s string) *big.Int {
	n, _ := new(big.Int).SetString(s, 10)
	return n
}

// int96 is t as a legacy Impala timestamp.
func int96(t time.Time) parquet.Value {
	day := t.Truncate(24 * time.Hour)
	nanos := uint64(t.Sub(day))
	julian := uint32(day.Unix()/86400 + 2440588)
	return parquet.Int96Value(deprecated.Int96{uint32(nanos), uint32(nanos >> 32), julian})
}

var scalarCases = []struct {
	name string
	node parquet.Node
	val  parquet.Value
	want string
}{
	{"boolean true", parquet.Leaf(parquet.BooleanType), parquet.BooleanValue(true), "b:true"},
	{"boolean false", parquet.Leaf(parquet.BooleanType), parquet.BooleanValue(false), "b:false"},
	{"int32", parquet.Leaf(parquet.Int32Type), parquet.Int32Value(-7), "n:-7"},
	{"int64", parquet.Leaf(parquet.Int64Type), parquet.Int64Value(math.MinInt64), "n:-9223372036854775808"},
	{"int8", parquet.Int(8), parquet.Int32Value(-128), "n:-128"},
	{"uint32", parquet.Uint(32), parquet.Int32Value(-1), "n:4294967295"},
	{"uint64", parquet.Uint(64), parquet.Int64Value(-1), "n:18446744073709551615"},
	{"float", parquet.Leaf(parquet.FloatType), parquet.FloatValue(0.1), "n:0.1"},
	{"double", parquet.Leaf(parquet.DoubleType), parquet.DoubleValue(-2.5e-7), "n:-2.5e-07"},
	{"double large", parquet.Leaf(parquet.DoubleType), parquet.DoubleValue(1e21), "n:1e+21"},
	{"double NaN", parquet.Leaf(parquet.DoubleType), parquet.DoubleValue(math.NaN()), "s:NaN"},
	{"double +Inf", parquet.Leaf(parquet.DoubleType), parquet.DoubleValue(math.Inf(1)), "s:Infinity"},
	{"float -Inf", parquet.Leaf(parquet.FloatType), parquet.FloatValue(float32(math.Inf(-1))), "s:-Infinity"},
	{"float16", float16Node(), fixed(0x00, 0xc1), "n:-2.5"},
	{"float16 subnormal", float16Node(), fixed(0x01, 0x00), "n:5.9604645e-08"},
	{"float16 NaN", float16Node(), fixed(0x01, 0x7e), "s:NaN"},
	{"decimal int32", parquet.Decimal(2, 9, parquet.Int32Type), parquet.Int32Value(-1250), "n:-12.50"},
	{"decimal int32 scale 0", parquet.Decimal(0, 9, parquet.Int32Type), parquet.Int32Value(42), "n:42"},
	{"decimal int64 below one", parquet.Decimal(4, 18, parquet.Int64Type), parquet.Int64Value(-5), "n:-0.0005"},
	{"decimal int64 min", parquet.Decimal(3, 18, parquet.Int64Type), parquet.Int64Value(math.MinInt64), "n:-9223372036854775.808"},
	{"decimal fixed 16", parquet.Decimal(2, 38, parquet.FixedLenByteArrayType(16)),
		parquet.FixedLenByteArrayValue(twosComplement(bigInt("-123456789012345678901234567890"), 16)), "n:-1234567890123456789012345678.90"},
	{"decimal fixed 4", parquet.Decimal(3, 9, parquet.FixedLenByteArrayType(4)),
		parquet.FixedLenByteArrayValue(twosComplement(big.NewInt(-1), 4)), "n:-0.001"},
	{"decimal bytes", parquet.Decimal(1, 30, parquet.ByteArrayType),
		parquet.ByteArrayValue(twosComplement(bigInt("98765432109876543210"), 9)), "n:9876543210987654321.0"},
	{"decimal bytes zero", parquet.Decimal(2, 30, parquet.ByteArrayType), parquet.ByteArrayValue(nil), "n:0.00"},
	{"string", parquet.String(), str("héllo, \"world\""), `s:héllo, "world"`},
	{"empty string", parquet.String(), str(""), "s:"},
	{"enum", parquet.Enum(), str("RED"), "s:RED"},
	{"json", parquet.JSON(), str(`{"a": [1, "x"]}`), `j:{"a": [1, "x"]}`},
	{"bson", parquet.BSON(), parquet.ByteArrayValue([]byte{5, 0, 0, 0, 0}), `s:\x0500000000`},
	{"bytes", parquet.Leaf(parquet.ByteArrayType), parquet.ByteArrayValue([]byte{0xde, 0xad, 0x0b}), `s:\xdead0b`},
	{"empty bytes", parquet.Leaf(parquet.ByteArrayType), parquet.ByteArrayValue(nil), `s:\x`},
	{"fixed bytes", parquet.Leaf(parquet.FixedLenByteArrayType(3)), fixed(1, 2, 0xff), `s:\x0102ff`},
	{"uuid", parquet.UUID(), parquet.FixedLenByteArrayValue(uuid16), "s:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"},
	{"date", parquet.Date(), days(noon), "s:2026-03-01"},
	{"date before epoch", parquet.Date(), parquet.Int32Value(-1), "s:1969-12-31"},
	{"date leap day", parquet.Date(), days(time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC)), "s:2000-02-29"},
	{"date year 1", parquet.Date(), days(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)), "s:0001-01-01"},
	{"date 1 BC", parquet.Date(), days(time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC)), "s:0001-12-31 BC"},
	{"date 4713 BC", parquet.Date(), days(time.Date(-4712, 1, 1, 0, 0, 0, 0, time.UTC)), "s:4713-01-01 BC"},
	{"date past 9999", parquet.Date(), days(time.Date(5874897, 12, 31, 0, 0, 0, 0, time.UTC)), "s:5874897-12-31"},
	{"timestamp millis", parquet.Timestamp(parquet.Millisecond), parquet.Int64Value(noon.UnixMilli()), "s:2026-03-01T12:00:00.5Z"},
	{"timestamp micros", parquet.Timestamp(parquet.Microsecond),
		parquet.Int64Value(noon.UnixMicro() + 123), "s:2026-03-01T12:00:00.500123Z"},
	{"timestamp nanos", parquet.Timestamp(parquet.Nanosecond), parquet.Int64Value(noon.UnixNano() + 1), "s:2026-03-01T12:00:00.500000001Z"},
	{"timestamp whole second", parquet.Timestamp(parquet.Millisecond), parquet.Int64Value(noon.Truncate(time.Second).UnixMilli()), "s:2026-03-01T12:00:00Z"},
	{"timestamp local", parquet.TimestampAdjusted(parquet.Millisecond, false), parquet.Int64Value(noon.UnixMilli()), "s:2026-03-01T12:00:00.5"},
	{"timestamp before epoch", parquet.Timestamp(parquet.Millisecond), parquet.Int64Value(-1), "s:1969-12-31T23:59:59.999Z"},
	{"timestamp BC", parquet.Timestamp(parquet.Microsecond), parquet.Int64Value(time.Date(-43, 3, 15, 12, 0, 0, 0, time.UTC).UnixMicro()), "s:0044-03-15T12:00:00Z BC"},
	{"timestamp local BC", parquet.TimestampAdjusted(parquet.Microsecond, false), parquet.Int64Value(time.Date(-43, 3, 15, 12, 0, 0, 0, time.UTC).UnixMicro()), "s:0044-03-15T12:00:00 BC"},
	{"time millis", parquet.Time(parquet.Millisecond), parquet.Int32Value(45296789), "s:12:34:56.789"},
	{"time micros", parquet.Time(parquet.Microsecond), parquet.Int64Value(1_000_001), "s:00:00:01.000001"},
	{"time nanos", parquet.Time(parquet.Nanosecond), parquet.Int64Value(int64(24*time.Hour - 1)), "s:23:59:59.999999999"},
	{"int96", parquet.Leaf(parquet.Int96Type), int96(noon), "s:2026-03-01T12:00:00.5Z"},
	{"int96 before epoch", parquet.Leaf(parquet.Int96Type), int96(time.Date(1900, 1, 2, 3, 4, 5, 0, time.UTC)), "s:1900-01-02T03:04:05Z"},
	{"interval", parquet.IntervalNode(), fixed(14, 0, 0, 0, 3, 0, 0, 0, 0xa5, 0x0f, 0, 0), "s:P14M3DT4.005S"},
}

// Each conversion, and a null of each type, read from a one-column file.
func TestScalarConversions(t *testing.T) {
	t.Parallel()
	for _, tc := range scalarCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			schema := parquet.NewSchema("t", parquet.Group{"c": parquet.Optional(tc.node)})
			data := encode(t, schema, []parquet.Row{{lv(tc.val, 0, 1, 0)}, {null(0, 0)}})
			equalRows(t, readAll(t, open(t, data)), []string{"1: " + tc.want, "2: NULL"})
		})
	}
}

// A required column has no nulls to read.
func TestRequiredColumn(t *testing.T) {
	t.Parallel()
	schema := parquet.NewSchema("t", parquet.Group{"a": parquet.Int(64), "b": parquet.String()})
	data := encode(t, schema, []parquet.Row{
		{lv(parquet.Int64Value(1), 0, 0, 0), lv(str("x"), 0, 0, 1)},
		{lv(parquet.Int64Value(2), 0, 0, 0), lv(str(""), 0, 0, 1)},
	})
	f := open(t, data)
	if got := f.Columns(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("Columns() = %q", got)
	}
	equalRows(t, readAll(t, f), []string{"1: n:1 | s:x", "2: n:2 | s:"})
}

// A file whose schema carries only the legacy converted types reads as the
// same values.
func TestLegacyConvertedTypes(t *testing.T) {
	t.Parallel()
	schema := parquet.NewSchema("t", parquet.Group{
		"a_utf8":   parquet.String(),
		"b_date":   parquet.Date(),
		"c_ts_ms":  parquet.Timestamp(parquet.Millisecond),
		"d_ts_us":  parquet.Timestamp(parquet.Microsecond),
		"e_dec":    parquet.Decimal(2, 9, parquet.Int32Type),
		"f_json":   parquet.JSON(),
		"g_uint8":  parquet.Uint(8),
		"h_time":   parquet.Time(parquet.Millisecond),
		"i_list":   parquet.List(parquet.Int(16)),
		"j_enum":   parquet.Enum(),
		"k_dec_ba": parquet.Decimal(3, 20, parquet.ByteArrayType),
	})
	data := encode(t, schema, []parquet.Row{{
		lv(str("ü"), 0, 0, 0), lv(days(noon), 0, 0, 1), lv(parquet.Int64Value(noon.UnixMilli()), 0, 0, 2),
		lv(parquet.Int64Value(noon.UnixMicro()), 0, 0, 3), lv(parquet.Int32Value(-5), 0, 0, 4),
		lv(str(`[1]`), 0, 0, 5), lv(parquet.Int32Value(255), 0, 0, 6), lv(parquet.Int32Value(1), 0, 0, 7),
		lv(parquet.Int32Value(-3), 0, 1, 8), lv(parquet.Int32Value(4), 1, 1, 8), lv(str("B"), 0, 0, 9),
		lv(parquet.ByteArrayValue([]byte{0x30, 0x39}), 0, 0, 10),
	}})
	stripped := 0
	legacy := rewriteFooter(t, data, func(md *format.FileMetaData) {
		for i := range md.Schema {
			if md.Schema[i].ConvertedType.Valid && md.Schema[i].LogicalType.Value != nil {
				md.Schema[i].LogicalType = format.LogicalType{}
				stripped++
			}
		}
	})
	if stripped != 12 { // ten leaves, the LIST group and its element
		t.Fatalf("stripped %d logical types, want 12", stripped)
	}
	want := []string{`1: s:ü | s:2026-03-01 | s:2026-03-01T12:00:00.5Z | s:2026-03-01T12:00:00.5Z | n:-0.05 | j:[1] | n:255 | s:00:00:00.001 | j:[-3,4] | s:B | n:12.345`}
	equalRows(t, readAll(t, open(t, data)), want)
	equalRows(t, readAll(t, open(t, legacy)), want)
}

// A column annotated NULL reads as nulls.
func TestNullType(t *testing.T) {
	t.Parallel()
	node := parquet.Leaf(annotatedType{parquet.Int32Type, &format.LogicalType{Value: &format.NullType{}}})
	schema := parquet.NewSchema("t", parquet.Group{"a": parquet.Int(32), "n": parquet.Optional(node)})
	data := encode(t, schema, []parquet.Row{{lv(parquet.Int32Value(1), 0, 0, 0), null(0, 1)}})
	equalRows(t, readAll(t, open(t, data)), []string{"1: n:1 | NULL"})
}

// A leaf whose type parquet-go cannot read is refused, not read as nulls.
func TestUnreadableType(t *testing.T) {
	t.Parallel()
	schema := parquet.NewSchema("t", parquet.Group{"f": parquet.Leaf(parquet.FixedLenByteArrayType(4))})
	data := rewriteFooter(t, encode(t, schema, []parquet.Row{{lv(fixed(1, 2, 3, 4), 0, 0, 0)}}), func(md *format.FileMetaData) {
		md.Schema[1].TypeLength = thrift.Null[int32]{}
	})
	f, err := pqread.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	wantCode(t, f.Check(), errcode.ImportHeaderMismatch)
}
