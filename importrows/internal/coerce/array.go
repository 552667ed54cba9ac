package coerce

import (
	"encoding/json"
	"unicode/utf8"
)

// appendArray appends c, a one-dimensional array, as a PostgreSQL array
// literal: {e1,e2,...}, each element coerced by the element type, NULL
// bare, and quoted with backslash escapes when array input needs it.
func (t Type) appendArray(dst []byte, c Cell) ([]byte, bool) {
	e, ok := arrayElements(c)
	if !ok {
		return dst, false
	}
	et := t.elem()
	var scratch [128]byte
	dst = append(dst, '{')
	for n := 0; ; n++ {
		cell, more, ok := e.next(scratch[:0])
		if !ok || !more {
			return append(dst, '}'), ok
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		if et.IsNull(cell) {
			dst = append(dst, "NULL"...)
			continue
		}
		start := len(dst)
		if dst, ok = et.appendText(dst, cell); !ok {
			return dst, false
		}
		dst = quoteArrayElem(dst, start)
	}
}

// arrayValue answers the element values, nil for a NULL element.
func (t Type) arrayValue(c Cell) (any, bool) {
	e, ok := arrayElements(c)
	if !ok {
		return nil, false
	}
	et := t.elem()
	vals := []any{}
	for {
		cell, more, ok := e.next(nil)
		if !ok || !more {
			return vals, ok
		}
		v, code := et.Value(cell)
		if code != "" {
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
