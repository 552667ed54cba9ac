package pqread

import (
	"fmt"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// converter appends the text of one present value to dst and answers the
// value's kind.
type converter func(dst []byte, v parquet.Value) ([]byte, Kind)

// logicalOf answers t's logical annotation, nil when it has none. parquet-go
// maps a legacy converted type to its logical equivalent when it opens a
// file, so this covers UTF8, DATE, TIMESTAMP_MILLIS, DECIMAL and the rest.
func logicalOf(t parquet.Type) format.LogicalTypeValue {
	if lt := t.LogicalType(); lt != nil {
		return lt.Value
	}
	return nil
}

// converterOf chooses the conversion of leaf c by its physical type and
// annotation. An annotation that does not fit the physical type is ignored:
// the value is read by its physical type, which loses nothing.
func converterOf(c *parquet.Column) (converter, error) {
	t := c.Type()
	kind := t.Kind()
	if ct := t.ConvertedType(); ct != nil && *ct == deprecated.Interval && t.Length() == 12 {
		return convInterval, nil
	}
	if conv := annotated(logicalOf(t), kind, t.Length()); conv != nil {
		return conv, nil
	}
	if conv := physical(kind); conv != nil {
		return conv, nil
	}
	return nil, fmt.Errorf("has the unsupported physical type %s", kind)
}

// annotated answers the conversion for a logical annotation over physical
// kind, or nil to read the value by its physical type.
func annotated(lt format.LogicalTypeValue, kind parquet.Kind, length int) converter {
	bytes := kind == parquet.ByteArray || kind == parquet.FixedLenByteArray
	switch lt := lt.(type) {
	case *format.StringType, *format.EnumType:
		return when(bytes, convString)
	case *format.JsonType:
		return when(bytes, convJSON)
	case *format.UUIDType:
		return when(kind == parquet.FixedLenByteArray && length == 16, convUUID)
	case *format.DateType:
		return when(kind == parquet.Int32, convDate)
	case *format.IntType:
		return intConverter(lt, kind)
	case *format.DecimalType:
		return decimalConverter(int(lt.Scale), kind)
	case *format.TimestampType:
		return timestampConverter(unitOf(lt.Unit), lt.IsAdjustedToUTC, kind)
	case *format.TimeType:
		return timeConverter(unitOf(lt.Unit), kind)
	}
	return nil
}

// physical answers the conversion of a value without annotation.
func physical(kind parquet.Kind) converter {
	switch kind {
	case parquet.Boolean:
		return convBool
	case parquet.Int32:
		return convInt32
	case parquet.Int64:
		return convInt64
	case parquet.Int96:
		return convInt96
	case parquet.Float:
		return convFloat
	case parquet.Double:
		return convDouble
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return convBytes
	}
	return nil
}

func when(ok bool, conv converter) converter {
	if ok {
		return conv
	}
	return nil
}

// unitOf answers the length of one step of a time unit.
func unitOf(u format.TimeUnit) time.Duration {
	if u.Value == nil {
		return time.Millisecond
	}
	return u.Value.Duration()
}

func convNull(dst []byte, _ parquet.Value) ([]byte, Kind) { return dst, Null }

func convBool(dst []byte, v parquet.Value) ([]byte, Kind) {
	if v.Boolean() {
		return append(dst, "true"...), Bool
	}
	return append(dst, "false"...), Bool
}

func convString(dst []byte, v parquet.Value) ([]byte, Kind) {
	return append(dst, v.ByteArray()...), String
}

func convJSON(dst []byte, v parquet.Value) ([]byte, Kind) {
	return append(dst, v.ByteArray()...), JSON
}

func convBytes(dst []byte, v parquet.Value) ([]byte, Kind) {
	return appendHex(dst, v.ByteArray()), String
}

func convUUID(dst []byte, v parquet.Value) ([]byte, Kind) {
	return appendUUID(dst, v.ByteArray()), String
}
