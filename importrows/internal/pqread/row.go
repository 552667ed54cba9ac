package pqread

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
)

// fault is a row the file holds but that breaks its own schema; the reader
// reports it with the row's number.
type fault string

func (f fault) Error() string { return string(f) }

func faultf(format string, args ...any) error { return fault(fmt.Sprintf(format, args...)) }

// assembler turns one parquet row into Values. Every cell's text is appended
// to one buffer and the Values point into it once the row is done, so a
// growing buffer never leaves a Value pointing at a stale array.
type assembler struct {
	fields []field
	spans  [][2]int // per leaf: the row's values of that leaf
	ends   []int    // per field: end of its text in buf
	vals   []Value
	buf    []byte
	tmp    []byte // one element's text before it is quoted into buf
}

func newAssembler(fields []field, leaves int) *assembler {
	return &assembler{
		fields: fields,
		spans:  make([][2]int, leaves),
		ends:   make([]int, len(fields)),
		vals:   make([]Value, len(fields)),
	}
}

// row converts row; its error is a [fault].
func (a *assembler) row(row parquet.Row) ([]Value, error) {
	if err := a.locate(row); err != nil {
		return nil, err
	}
	a.buf = a.buf[:0]
	for i := range a.fields {
		v, err := a.cell(&a.fields[i], row)
		if err != nil {
			return nil, err
		}
		a.vals[i], a.ends[i] = v, len(a.buf)
	}
	start := 0
	for i := range a.vals {
		if a.vals[i].Kind != Null {
			a.vals[i].Text = a.buf[start:a.ends[i]:a.ends[i]]
		}
		start = a.ends[i]
	}
	return a.vals, nil
}

// cell appends the text of field f's cell to buf and answers its Value,
// without Text.
func (a *assembler) cell(f *field, row parquet.Row) (Value, error) {
	switch f.shape {
	case list:
		return a.list(f, row), nil
	case mapping:
		return a.mapping(f, row)
	}
	return a.scalar(f, row), nil
}

// locate finds each leaf's values in row, which holds them in leaf order.
func (a *assembler) locate(row parquet.Row) error {
	clear(a.spans)
	for i := 0; i < len(row); {
		c, j := row[i].Column(), i+1
		for j < len(row) && row[j].Column() == c {
			j++
		}
		if c < 0 || c >= len(a.spans) {
			return faultf("a value of unknown column %d", c)
		}
		a.spans[c] = [2]int{i, j}
		i = j
	}
	return nil
}

func (a *assembler) values(row parquet.Row, leaf int) []parquet.Value {
	s := a.spans[leaf]
	return row[s[0]:s[1]]
}

func (a *assembler) scalar(f *field, row parquet.Row) Value {
	vs := a.values(row, f.leaf)
	if len(vs) == 0 || vs[0].DefinitionLevel() < f.elemDef {
		return Value{}
	}
	var kind Kind
	a.buf, kind = f.conv(a.buf, vs[0])
	return Value{Kind: kind, Bool: kind == Bool && vs[0].Boolean()}
}

// collection answers whether the values of a list or map make a null one, or
// an empty one, by the first value's definition level.
func collection(f *field, vs []parquet.Value) (null, empty bool) {
	if len(vs) == 0 || vs[0].DefinitionLevel() < f.nullDef {
		return true, false
	}
	return false, vs[0].DefinitionLevel() < f.emptyDef
}

func (a *assembler) list(f *field, row parquet.Row) Value {
	vs := a.values(row, f.leaf)
	null, empty := collection(f, vs)
	switch {
	case null:
		return Value{}
	case empty:
		a.buf = append(a.buf, "[]"...)
		return Value{Kind: JSON}
	}
	a.buf = append(a.buf, '[')
	for i, v := range vs {
		if i > 0 {
			a.buf = append(a.buf, ',')
		}
		a.buf = a.element(a.buf, f.conv, v, f.elemDef)
	}
	a.buf = append(a.buf, ']')
	return Value{Kind: JSON}
}

func (a *assembler) mapping(f *field, row parquet.Row) (Value, error) {
	keys, vals := a.values(row, f.leaf), a.values(row, f.valLeaf)
	null, empty := collection(f, keys)
	switch {
	case null:
		return Value{}, nil
	case empty:
		a.buf = append(a.buf, "{}"...)
		return Value{Kind: JSON}, nil
	case len(keys) != len(vals):
		return Value{}, faultf("field %q: a map has %d keys and %d values", f.name, len(keys), len(vals))
	}
	a.buf = append(a.buf, '{')
	for i, k := range keys {
		if k.DefinitionLevel() < f.elemDef {
			return Value{}, faultf("field %q: a map key is null", f.name)
		}
		if i > 0 {
			a.buf = append(a.buf, ',')
		}
		a.tmp, _ = f.conv(a.tmp[:0], k)
		a.buf = append(appendJSONString(a.buf, a.tmp), ':')
		a.buf = a.element(a.buf, f.valConv, vals[i], f.valDef)
	}
	a.buf = append(a.buf, '}')
	return Value{Kind: JSON}, nil
}

// element writes v as JSON, null when its definition level is below def.
func (a *assembler) element(dst []byte, conv converter, v parquet.Value, def int) []byte {
	if v.DefinitionLevel() < def {
		return append(dst, "null"...)
	}
	var kind Kind
	a.tmp, kind = conv(a.tmp[:0], v)
	return appendElement(dst, a.tmp, kind)
}
