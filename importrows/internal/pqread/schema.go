package pqread

import (
	"errors"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/pipekit/pipe/errcode"
)

// shape is how a top-level field's leaf values make one cell.
type shape uint8

const (
	scalar  shape = iota // one value, null below elemDef
	list                 // a JSON array of the leaf's values
	mapping              // a JSON object of key and value leaves
)

// field is the plan for reading one top-level field. Definition levels:
// the first value of a row below nullDef is a null list or map, below
// emptyDef an empty one; an element below elemDef (a map value below valDef)
// is null.
type field struct {
	name     string
	shape    shape
	leaf     int // leaf column of the value, the list element or the map key
	valLeaf  int // leaf column of a map's value
	conv     converter
	valConv  converter
	nullDef  int
	emptyDef int
	elemDef  int
	valDef   int
}

// planner plans the reading of a file's fields.
type planner struct {
	leaves []*format.SchemaElement // the schema element of each leaf column
}

// planFields plans every top-level field of root, or refuses the first one
// that is not flat. schema is the file's flattened schema, root first.
func planFields(root *parquet.Column, schema []format.SchemaElement) ([]field, error) {
	var p planner
	for i := range schema {
		if schema[i].Type.Valid {
			p.leaves = append(p.leaves, &schema[i])
		}
	}
	cols := root.Columns()
	fields := make([]field, len(cols))
	for i, c := range cols {
		if err := p.field(&fields[i], c); err != nil {
			return nil, err
		}
	}
	return fields, nil
}

func (p *planner) field(f *field, c *parquet.Column) error {
	f.name = c.Name()
	switch {
	case c.Leaf() && c.Repeated():
		// A repeated primitive: a list that is never null.
		f.shape, f.emptyDef = list, c.MaxDefinitionLevel()
		return p.leaf(f, c)
	case c.Leaf():
		f.shape = scalar
		return p.leaf(f, c)
	case c.Repeated():
		return refuse(f.name, "is a repeated group")
	}
	switch logicalOf(c.Type()).(type) {
	case *format.ListType:
		return p.list(f, c)
	case *format.MapType:
		return p.mapping(f, c)
	}
	return refuse(f.name, "is a nested group")
}

func (p *planner) leaf(f *field, c *parquet.Column) error {
	f.leaf, f.elemDef = c.Index(), c.MaxDefinitionLevel()
	var err error
	f.conv, err = p.converter(c)
	if err != nil {
		return refuse(f.name, err.Error())
	}
	return nil
}

// planList plans a LIST: a group holding one repeated field, which is either
// the element itself (the legacy two-level layout) or a group of one element.
func (p *planner) list(f *field, c *parquet.Column) error {
	rep := onlyChild(c)
	if rep == nil || !rep.Repeated() {
		return refuse(f.name, "is a LIST without one repeated field")
	}
	elem := rep
	if !rep.Leaf() {
		elem = onlyChild(rep)
	}
	if elem == nil || !elem.Leaf() || (elem != rep && elem.Repeated()) {
		return refuse(f.name, "is a LIST whose elements are not primitive")
	}
	f.shape, f.nullDef, f.emptyDef = list, c.MaxDefinitionLevel(), rep.MaxDefinitionLevel()
	return p.leaf(f, elem)
}

// planMap plans a MAP: a group holding one repeated group of a key and a
// value, both primitive.
func (p *planner) mapping(f *field, c *parquet.Column) error {
	kv := onlyChild(c)
	if kv == nil || !kv.Repeated() || kv.Leaf() || len(kv.Columns()) != 2 {
		return refuse(f.name, "is a MAP without one repeated key-value group")
	}
	key, val := kv.Columns()[0], kv.Columns()[1]
	if !key.Leaf() || !val.Leaf() || key.Repeated() || val.Repeated() {
		return refuse(f.name, "is a MAP whose keys or values are not primitive")
	}
	f.shape, f.nullDef, f.emptyDef = mapping, c.MaxDefinitionLevel(), kv.MaxDefinitionLevel()
	if err := p.leaf(f, key); err != nil {
		return err
	}
	var err error
	f.valLeaf, f.valDef = val.Index(), val.MaxDefinitionLevel()
	if f.valConv, err = p.converter(val); err != nil {
		return refuse(f.name, err.Error())
	}
	return nil
}

// converter chooses the conversion of leaf c. parquet-go does not map a
// FLOAT16 annotation to a type, and it reads a type it does not know as
// NULL, so both are told from the schema element.
func (p *planner) converter(c *parquet.Column) (converter, error) {
	var elem format.LogicalTypeValue
	if i := c.Index(); i >= 0 && i < len(p.leaves) {
		elem = p.leaves[i].LogicalType.Value
	}
	t := c.Type()
	switch elem.(type) {
	case *format.Float16Type:
		if t.Kind() == parquet.FixedLenByteArray && t.Length() == 2 {
			return convFloat16, nil
		}
	case *format.NullType:
		return convNull, nil
	}
	if _, ok := logicalOf(t).(*format.NullType); ok {
		return nil, errors.New("has a type that cannot be read")
	}
	return converterOf(c)
}

func onlyChild(c *parquet.Column) *parquet.Column {
	if cols := c.Columns(); len(cols) == 1 {
		return cols[0]
	}
	return nil
}

func countLeaves(c *parquet.Column) int {
	if c.Leaf() {
		return 1
	}
	n := 0
	for _, child := range c.Columns() {
		n += countLeaves(child)
	}
	return n
}

// refuse reports a field that cannot be imported as one column; why is a
// phrase about the schema, never about data.
func refuse(name, why string) error {
	return errcode.New(errcode.ImportHeaderMismatch, "parquet field %q %s", name, why).
		WithFix("import flat columns: flatten nested groups into top-level fields, or write them as JSON strings; lists and maps may hold only primitive values")
}
