package exportrows

import (
	"encoding/binary"

	"github.com/pipekit/pipe/errcode"
)

// eachElem calls fn with each element of the binary array raw of column c
// (nil for a NULL element). An array of more than one dimension is
// X_EXPORT_VALUE_UNSUPPORTED: a Parquet list is flat.
func eachElem(c *column, raw []byte, fn func(v []byte) error) error {
	dims, body, err := arrayDims(c, raw)
	if err == nil && len(dims) > 1 {
		return errcode.New(errcode.ExportValueUnsupported, "export: column %s holds a %d-dimensional array", c.Name, len(dims)).
			WithFix("export multi-dimensional arrays as csv or ndjson, or select them as text in a query")
	}
	n := 0
	if len(dims) == 1 {
		n = dims[0]
	}
	for i := 0; err == nil && i < n; i++ {
		var v []byte
		var ok bool
		if v, body, ok = nextElem(body); !ok {
			return badArray(c)
		}
		err = fn(v)
	}
	return err
}

// arrayDims reads an array's header: the length of each dimension (none
// for an empty array) and the elements' bytes. A lower bound other than 1
// ([0:1]={1,2}) is X_EXPORT_VALUE_UNSUPPORTED: a JSON array or a Parquet
// list has none, and the bounds would be lost.
func arrayDims(c *column, raw []byte) ([]int, []byte, error) {
	if len(raw) < 12 {
		return nil, nil, badArray(c)
	}
	ndim := int(int32(binary.BigEndian.Uint32(raw)))
	if ndim < 0 || ndim > 6 || len(raw) < 12+8*ndim {
		return nil, nil, badArray(c)
	}
	dims := make([]int, ndim)
	for i := range dims {
		at := raw[12+8*i:]
		dims[i] = int(int32(binary.BigEndian.Uint32(at)))
		if int32(binary.BigEndian.Uint32(at[4:])) != 1 {
			return nil, nil, errcode.New(errcode.ExportValueUnsupported, "export: column %s holds an array whose subscripts do not start at 1", c.Name).
				WithFix("export it as csv, which keeps the bounds, or select the array without them (array(select unnest(...))) in a query")
		}
	}
	return dims, raw[12+8*ndim:], nil
}

// nextElem splits one element off b: nil for a NULL one.
func nextElem(b []byte) (v, rest []byte, ok bool) {
	if len(b) < 4 {
		return nil, nil, false
	}
	size := int32(binary.BigEndian.Uint32(b))
	b = b[4:]
	switch {
	case size < 0:
		return nil, b, true
	case int(size) > len(b):
		return nil, nil, false
	}
	return b[:size], b[size:], true
}

func badArray(c *column) error {
	return errcode.New(errcode.Invariant, "export: column %s: the server sent an array pipe cannot read", c.Name)
}
