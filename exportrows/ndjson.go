package exportrows

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
	"math"
)

// ndjsonEncoder writes one JSON object per row, keys in column order, each
// line ended by \n. See the package documentation for the JSON type of
// each column type.
type ndjsonEncoder struct {
	w    io.WriteCloser
	cols []column
	keys [][]byte // `{"name":` then `,"name":`
	buf  []byte
}

func newNDJSONEncoder(w io.WriteCloser, cols []column) *ndjsonEncoder {
	e := &ndjsonEncoder{w: w, cols: exportedOf(cols), buf: make([]byte, 0, flushAt+flushAt/4)}
	for i, c := range e.cols {
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		e.keys = append(e.keys, append(appendJSONString([]byte{sep}, []byte(c.Name)), ':'))
	}
	return e
}

func (e *ndjsonEncoder) row(vals [][]byte) error {
	b := e.buf
	var err error
	for i := range e.cols {
		b = append(b, e.keys[i]...)
		if v := vals[i]; v == nil {
			b = append(b, "null"...)
		} else if b, err = appendJSON(b, &e.cols[i], e.cols[i].kind, e.cols[i].binary, v); err != nil {
			return err
		}
	}
	e.buf = append(b, '}', '\n')
	if len(e.buf) >= flushAt {
		return e.flush()
	}
	return nil
}

// appendJSON appends one non-NULL value of kind k (of column c), read in
// binary form if binary.
func appendJSON(b []byte, c *column, k kind, binary bool, v []byte) ([]byte, error) {
	if !binary {
		switch k {
		case kJSONB:
			return append(b, v...), nil
		case kJSON:
			return compactJSON(b, v), nil
		}
		return appendJSONString(b, v), nil // numeric and untyped text: strings
	}
	switch k {
	case kBool, kInt2, kInt4, kInt8:
		return appendScalar(b, k, v), nil
	case kFloat4, kFloat8:
		return appendJSONFloat(b, k, v), nil
	case kText:
		return appendJSONString(b, v), nil
	case kArray:
		return appendJSONArray(b, c, v)
	}
	if k == kBytea {
		return append(hex.AppendEncode(append(b, `"\\x`...), v), '"'), nil
	}
	b = appendScalar(append(b, '"'), k, v) // uuid, date, timestamps: nothing to escape
	return append(b, '"'), nil
}

// appendJSONFloat appends a number; NaN and the infinities, which JSON
// lacks, as the strings "NaN", "Infinity", "-Infinity".
func appendJSONFloat(b []byte, k kind, v []byte) []byte {
	var f float64
	if k == kFloat4 {
		f = float64(math.Float32frombits(binary.BigEndian.Uint32(v)))
	} else {
		f = math.Float64frombits(binary.BigEndian.Uint64(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(appendScalar(append(b, '"'), k, v), '"')
	}
	return appendScalar(b, k, v)
}

// appendJSONArray appends an array as a JSON array, a multidimensional
// one as nested arrays, each element by its own type's rules.
func appendJSONArray(b []byte, c *column, v []byte) ([]byte, error) {
	dims, body, err := arrayDims(c, v)
	if err != nil || len(dims) == 0 {
		return append(b, "[]"...), err
	}
	b, _, err = appendJSONDims(b, c, dims, body)
	return b, err
}

// appendJSONDims appends the sub-array of shape dims whose elements begin
// body, and answers the bytes after them.
func appendJSONDims(b []byte, c *column, dims []int, body []byte) ([]byte, []byte, error) {
	b = append(b, '[')
	for i := range dims[0] {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if len(dims) > 1 {
			if b, body, err = appendJSONDims(b, c, dims[1:], body); err != nil {
				return b, nil, err
			}
			continue
		}
		e, rest, ok := nextElem(body)
		if !ok {
			return b, nil, badArray(c)
		}
		body = rest
		if e == nil {
			b = append(b, "null"...)
		} else if b, err = appendJSON(b, c, c.elem, c.elem.binaryWire(), e); err != nil {
			return b, nil, err
		}
	}
	return append(b, ']'), body, nil
}

// compactJSON appends a json value as written — the json type keeps its
// text, whitespace and key order included — or, when it holds a line
// break (which only insignificant whitespace can), without its
// insignificant whitespace: an NDJSON row is one line.
func compactJSON(b, v []byte) []byte {
	if bytes.IndexByte(v, '\n') < 0 && bytes.IndexByte(v, '\r') < 0 && json.Valid(v) {
		return append(b, v...)
	}
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, v); err != nil {
		return appendJSONString(b, v) // not JSON after all: keep it, as a string
	}
	return buf.Bytes()
}

func (e *ndjsonEncoder) flush() error {
	_, err := e.w.Write(e.buf)
	e.buf = e.buf[:0]
	return err
}

func (e *ndjsonEncoder) close() error {
	if err := e.flush(); err != nil {
		return err
	}
	return e.w.Close()
}
