package exportrows

import (
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// parquetSchema answers the file's schema: one optional field per exported
// column, in column order.
func parquetSchema(cols []column) *parquet.Schema {
	g := make(ordered, len(cols))
	for i, c := range cols {
		g[i] = &field{Node: parquet.Optional(parquetNode(c)), name: c.Name}
	}
	return parquet.NewSchema("export", g)
}

// parquetNode answers a column's node: a LIST of optional elements for an
// array, else the leaf of its type.
func parquetNode(c column) parquet.Node {
	if c.kind == kArray {
		return parquet.List(parquet.Optional(parquetLeaf(c.elem, false, c)))
	}
	return parquetLeaf(c.kind, c.decimal(), c)
}

// parquetLeaf answers the leaf of a value of kind k; decimal says a
// numeric is written as DECIMAL(c.prec, c.scale), else as its text.
func parquetLeaf(k kind, decimal bool, c column) parquet.Node {
	switch k {
	case kBool:
		return parquet.Leaf(parquet.BooleanType)
	case kInt2:
		return parquet.Int(16)
	case kInt4:
		return parquet.Int(32)
	case kInt8:
		return parquet.Int(64)
	case kFloat4:
		return parquet.Leaf(parquet.FloatType)
	case kFloat8:
		return parquet.Leaf(parquet.DoubleType)
	case kUUID:
		return parquet.UUID()
	case kDate:
		return parquet.Date()
	case kTimestamp:
		return parquet.TimestampAdjusted(parquet.Microsecond, false)
	case kTimestamptz:
		return parquet.TimestampAdjusted(parquet.Microsecond, true)
	case kJSON, kJSONB:
		return parquet.JSON()
	case kBytea:
		return parquet.Leaf(parquet.ByteArrayType)
	case kNumeric:
		if decimal {
			return parquet.Decimal(c.scale, c.prec, decimalType(c.prec))
		}
	}
	return parquet.String()
}

// decimalType answers the physical type of a DECIMAL of precision p: the
// narrowest the Parquet format allows.
func decimalType(p int) parquet.Type {
	switch {
	case p <= 9:
		return parquet.Int32Type
	case p <= 18:
		return parquet.Int64Type
	}
	return parquet.FixedLenByteArrayType(16)
}

// ordered is a group whose fields keep their order (parquet.Group, a map,
// sorts them by name).
type ordered []parquet.Field

func (g ordered) ID() int                     { return 0 }
func (g ordered) String() string              { return g.group().String() }
func (g ordered) Type() parquet.Type          { return parquet.Group{}.Type() }
func (g ordered) Optional() bool              { return false }
func (g ordered) Repeated() bool              { return false }
func (g ordered) Required() bool              { return true }
func (g ordered) Leaf() bool                  { return false }
func (g ordered) Fields() []parquet.Field     { return g }
func (g ordered) Encoding() encoding.Encoding { return nil }
func (g ordered) Compression() compress.Codec { return nil }
func (g ordered) GoType() reflect.Type        { return g.group().GoType() }

// group answers g as a parquet.Group, for what only describes it.
func (g ordered) group() parquet.Group {
	m := parquet.Group{}
	for _, f := range g {
		m[f.Name()] = f
	}
	return m
}

// field is one named field of an ordered group.
type field struct {
	parquet.Node
	name string
}

func (f *field) Name() string { return f.name }

// Value answers the field of a map-shaped Go value; export rows are written
// as parquet.Row, never from Go values.
func (f *field) Value(base reflect.Value) reflect.Value {
	if base.Kind() != reflect.Map {
		return reflect.Value{}
	}
	return base.MapIndex(reflect.ValueOf(f.name))
}
