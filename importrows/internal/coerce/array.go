package coerce

import (
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
)

// appendArray appends c, an array, as a PostgreSQL array literal:
// {e1,e2,...}, each element coerced by the element type, NULL bare, and
// quoted with backslash escapes when array input needs it. A
// multidimensional array ({{1,2},{3,4}}, [[1,2],[3,4]]) must be
// rectangular, as PostgreSQL requires.
func (t Type) appendArray(dst []byte, c Cell) ([]byte, bool) {
	prefix, bounds, lit, ok := cutBounds(c)
	if !ok {
		return dst, false
	}
	dst = append(dst, prefix...)
	dst, shape, ok := t.appendDims(dst, lit, 0)
	return dst, ok && (bounds == nil || slices.Equal(bounds, shape))
}

// maxDims is PostgreSQL's limit on an array's dimensions.
const maxDims = 6

// appendDims appends the array c at depth and answers its shape: its
// length, then its sub-arrays' shape.
func (t Type) appendDims(dst []byte, c Cell, depth int) ([]byte, []int, bool) {
	e, ok := arrayElements(c)
	if !ok || depth >= maxDims {
		return dst, nil, false
	}
	et := t.elem()
	var scratch [128]byte
	var sub []int // the shape of the sub-arrays, once one is read
	dst = append(dst, '{')
	for n := 0; ; n++ {
		cell, more, ok := e.next(scratch[:0])
		if !ok || !more {
			return append(dst, '}'), append([]int{n}, sub...), ok && (n > 0 || depth == 0)
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		nested := e.nested(cell, et)
		if n > 0 && nested != (sub != nil) {
			return dst, nil, false // a sub-array beside an element
		}
		if nested {
			var shape []int
			if dst, shape, ok = t.appendDims(dst, cell, depth+1); !ok || sub != nil && !slices.Equal(shape, sub) {
				return dst, nil, false
			}
			sub = shape
			continue
		}
		if et.IsNull(cell) {
			dst = append(dst, "NULL"...)
			continue
		}
		start := len(dst)
		if dst, ok = et.appendText(dst, cell); !ok {
			return dst, nil, false
		}
		dst = quoteArrayElem(dst, start)
	}
}

// arrayValue answers the element values, nil for a NULL element, a
// sub-array as its own []any.
func (t Type) arrayValue(c Cell) (any, bool) {
	if _, ok := t.appendArray(nil, c); !ok {
		return nil, false // not rectangular, or an element refused
	}
	_, _, lit, _ := cutBounds(c)
	return t.dimValue(lit)
}

func (t Type) dimValue(c Cell) (any, bool) {
	e, _ := arrayElements(c)
	et := t.elem()
	vals := []any{}
	for {
		cell, more, ok := e.next(nil)
		if !ok || !more {
			return vals, ok
		}
		var v any
		if e.nested(cell, et) {
			v, ok = t.dimValue(cell)
		} else {
			var code errcode.Code
			v, code = et.Value(cell)
			ok = code == ""
		}
		if !ok {
			return nil, false
		}
		vals = append(vals, v)
	}
}

// elements reads the elements of an array cell one by one.
type elements struct {
	src  []byte
	i    int  // the next byte to read
	n    int  // the elements read
	end  bool // the closing bracket is read
	json bool // a JSON array, else a PostgreSQL array literal
	sub  bool // the last element read is a sub-array literal
}

// nested reports whether cell, the last element read, is a sub-array: a
// braced literal in a literal, a JSON array in a JSON array whose element
// type is not json or jsonb (where it is a value).
func (e *elements) nested(cell Cell, et Type) bool {
	if !e.json {
		return e.sub
	}
	return cell.Kind == JSON && cell.Bytes[0] == '[' && et.base != jsonType && et.base != jsonb
}

// arrayElements starts reading c: a String cell holding a JSON array
// ([1,2]) or a PostgreSQL array literal ({1,2}, {"a b",NULL}), or a JSON
// cell holding an array.
func arrayElements(c Cell) (elements, bool) {
	if c.Kind != String && c.Kind != JSON {
		return elements{}, false
	}
	src := trimSpace(c.Bytes)
	if len(src) < 2 || !utf8.Valid(src) {
		return elements{}, false
	}
	switch {
	case src[0] == '[':
		return elements{src: src, i: 1, json: true}, json.Valid(src)
	case src[0] == '{' && c.Kind == String:
		return elements{src: src, i: 1}, src[len(src)-1] == '}'
	}
	return elements{}, false
}

// next answers the next element, unescaping it into scratch when it must,
// and whether there was one; ok is false when the input is malformed.
func (e *elements) next(scratch []byte) (c Cell, more, ok bool) {
	if e.json {
		return e.nextJSON(scratch)
	}
	return e.nextLiteral(scratch)
}

// ArrayLiteral appends a JSON array cell (nested for more dimensions) as a
// PostgreSQL array literal whose elements are the JSON values' text, for
// the server's input function of an array type this package does not read
// to take, as it takes a `{...}` written in a CSV file. ok is false when c
// is not an array.
func ArrayLiteral(dst []byte, c Cell) ([]byte, bool) {
	return Type{base: unknown, array: true, mod: -1}.appendArray(dst, c)
}
