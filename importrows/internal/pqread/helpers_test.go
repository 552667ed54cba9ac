package pqread_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/pqread"
)

// encode writes rows of schema as a Parquet file.
func encode(t testing.TB, schema *parquet.Schema, rows []parquet.Row, opts ...parquet.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, append([]parquet.WriterOption{schema}, opts...)...)
	if _, err := w.WriteRows(rows); err != nil {
		t.Fatalf("write rows: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("close writer: %v", err)
	}
	return buf.Bytes()
}

// lv places v in a row at repetition level rep, definition level def, leaf col.
func lv(v parquet.Value, rep, def, col int) parquet.Value { return v.Level(rep, def, col) }

// null is a null value at definition level def of leaf col, starting a row.
func null(def, col int) parquet.Value { return parquet.NullValue().Level(0, def, col) }

// open opens data and checks its schema, failing the test on an error.
func open(t testing.TB, data []byte) *pqread.File {
	t.Helper()
	f, err := pqread.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if err := f.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	return f
}

// readAll reads every row group of f and renders each row as
// "number: cell | cell".
func readAll(t testing.TB, f *pqread.File) []string {
	t.Helper()
	var rows []string
	for g := range f.RowGroups() {
		err := f.ReadRowGroup(context.Background(), g, func(n int64, vals []pqread.Value) error {
			if len(vals) != len(f.Columns()) {
				t.Errorf("row %d has %d values for %d columns", n, len(vals), len(f.Columns()))
			}
			cells := make([]string, len(vals))
			for i, v := range vals {
				cells[i] = render(t, v)
			}
			rows = append(rows, fmt.Sprintf("%d: %s", n, strings.Join(cells, " | ")))
			return nil
		})
		if err != nil {
			t.Fatalf("ReadRowGroup(%d): %v", g, err)
		}
	}
	return rows
}

// render writes a Value as its kind's letter and its text: "s:abc", "n:1",
// "b:true", "j:[1]", or NULL.
func render(t testing.TB, v pqread.Value) string {
	switch v.Kind {
	case pqread.Null:
		if v.Text != nil {
			t.Errorf("null value has text")
		}
		return "NULL"
	case pqread.Bool:
		if string(v.Text) != fmt.Sprint(v.Bool) {
			t.Errorf("bool %t has text %q", v.Bool, v.Text)
		}
	}
	return v.Kind.String()[:1] + ":" + string(v.Text)
}

// equalRows fails the test unless got and want are the same rows.
func equalRows(t testing.TB, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// wantCode fails the test unless err carries code.
func wantCode(t testing.TB, err error, code errcode.Code) {
	t.Helper()
	if got := errcode.CodeOf(err); got != code {
		t.Fatalf("error %v has code %q, want %q", err, got, code)
	}
}

// rewriteFooter answers data with its footer metadata changed by edit.
func rewriteFooter(t testing.TB, data []byte, edit func(*format.FileMetaData)) []byte {
	t.Helper()
	size := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	start := len(data) - 8 - size
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[start:len(data)-8], &md); err != nil {
		t.Fatalf("decode footer: %v", err)
	}
	edit(&md)
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatalf("encode footer: %v", err)
	}
	out := append(bytes.Clone(data[:start]), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// annotatedType overrides a type's annotations, to write what parquet-go's
// own nodes do not: a FLOAT16, or a legacy LIST.
type annotatedType struct {
	parquet.Type
	logical *format.LogicalType
}

func (a annotatedType) LogicalType() *format.LogicalType { return a.logical }

// float16Node is a FIXED_LEN_BYTE_ARRAY(2) annotated FLOAT16.
func float16Node() parquet.Node {
	return parquet.Leaf(annotatedType{parquet.FixedLenByteArrayType(2), &format.LogicalType{Value: &format.Float16Type{}}})
}

// annotatedGroup is a group with the annotation of typ, to write a LIST or
// MAP in a layout parquet-go's own nodes do not: a legacy two-level list, a
// map with an optional key.
type annotatedGroup struct {
	parquet.Group
	typ parquet.Type
}

func (g annotatedGroup) Type() parquet.Type { return g.typ }

var (
	listType = parquet.List(parquet.String()).Type()
	mapType  = parquet.Map(parquet.String(), parquet.String()).Type()
)
