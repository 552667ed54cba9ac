package exportrows

import (
	"encoding/binary"

	"github.com/pipekit/pipe/errcode"
)

// eachElem calls fn with each element of the binary array raw of column c
// (nil for a NULL element). An array of more than one dimension is
// X_EXPORT_VALUE_UNSUPPORTED: JSON and Parquet lists are written flat.
func eachElem(c *column, raw []byte, fn func(v []byte) error) error {
	n, body, err := arrayBody(c, raw)
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

// arrayBody reads an array's header: its element count and the elements'
// bytes.
func arrayBody(c *column, raw []byte) (int, []byte, error) {
	if len(raw) < 12 {
		return 0, nil, badArray(c)
	}
	switch ndim := int32(binary.BigEndian.Uint32(raw)); {
	case ndim == 0:
		return 0, nil, nil
	case ndim != 1:
		return 0, nil, errcode.New(errcode.ExportValueUnsupported, "export: column %s holds a %d-dimensional array", c.Name, ndim).
			WithFix("export multi-dimensional arrays as csv, or select them as text in a query")
	case len(raw) < 20:
		return 0, nil, badArray(c)
	}
	return int(int32(binary.BigEndian.Uint32(raw[12:]))), raw[20:], nil
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
