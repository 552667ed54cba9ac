package exportrows_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pipekit/pipe/exportrows"
)

// arrowTable reads a Parquet file with Apache Arrow's reader, a reader
// independent of the writer's library.
func arrowTable(t *testing.T, data []byte) arrow.Table {
	t.Helper()
	r, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tbl.Release)
	return tbl
}

// cellOf answers row's value of column i as Arrow prints it.
func cellOf(tbl arrow.Table, i, row int) string {
	col := tbl.Column(i).Data().Chunk(0)
	switch {
	case col.IsNull(row):
		return "NULL"
	case col.DataType().ID() == arrow.BINARY:
		q := strconv.QuoteToASCII(string(col.(*array.Binary).Value(row)))
		return q[1 : len(q)-1]
	}
	return col.ValueStr(row)
}

func TestParquetReadBackByArrow(t *testing.T) {
	b := setup(t, typesDDL)
	in := b.in(t, "types")
	in.Format = exportrows.Parquet
	res := b.export(t, options(), in)
	bk, m := manifestOf(t, res)
	tbl := arrowTable(t, readAll(t, bk, m.Parts[0].Key))
	want := []string{
		"id int64: 1 | 2",
		"s int16: -32768 | NULL",
		"i int32: 2147483647 | NULL",
		"big int64: 9007199254740993 | NULL",
		"r float32: 1.5 | NaN",
		"d float64: 0.1 | -Inf",
		"n decimal(10, 2): -12345678.9 | NULL",
		"nbig decimal(30, 5): 123456789012345678901234.56789 | NULL",
		"nfree utf8: 3.14159265358979323846264338327950288419 | NULL",
		"b bool: true | NULL",
		"t utf8: Zoë \"q\" \\ \n\t東京 | NULL",
		"u extension<arrow.uuid>: a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 | NULL",
		"tz timestamp[us, tz=UTC]: 2024-01-02T03:04:05.123456Z | NULL",
		"ts timestamp[us]: 2024-01-02T03:04:05 | NULL",
		"dt date32: 2024-02-29 | NULL",
		`j binary: {\"a\": [1, 2],\n \"b\": null} | NULL`,
		`jb binary: {\"k\": \"v\", \"n\": 1.50} | NULL`,
		`raw binary: \x00\xff | NULL`,
		"ia list<element: int32, nullable>: [1,null,3] | []",
		"ta list<element: utf8, nullable>: [\"a\",\"b c\",null] | NULL",
		"na list<element: utf8, nullable>: [\"1.50\",null] | NULL",
		"iv utf8: 1 day 02:00:00 | NULL",
	}
	for i, f := range tbl.Schema().Fields() {
		got := fmt.Sprintf("%s %s: %s | %s", f.Name, f.Type, cellOf(tbl, i, 0), cellOf(tbl, i, 1))
		if i >= len(want) || got != want[i] {
			t.Errorf("column %d:\n%s\nwant\n%s", i, got, want[min(i, len(want)-1)])
		}
	}
	if n := len(tbl.Schema().Fields()); n != len(want) {
		t.Errorf("%d columns", n)
	}
}

// The file's own annotations, as the Parquet schema states them.
func TestParquetLogicalTypes(t *testing.T) {
	b := setup(t, typesDDL)
	in := b.in(t, "types")
	in.Format = exportrows.Parquet
	res := b.export(t, options(), in)
	bk, m := manifestOf(t, res)
	r, err := file.NewParquetReader(bytes.NewReader(readAll(t, bk, m.Parts[0].Key)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sc := r.MetaData().Schema
	got := map[string]string{}
	for i := range sc.NumColumns() {
		c := sc.Column(i)
		got[c.Path()] = c.PhysicalType().String() + " " + c.LogicalType().String()
	}
	for path, want := range map[string]string{
		"n": "INT64 Decimal(precision=10, scale=2)", "nbig": "FIXED_LEN_BYTE_ARRAY Decimal(precision=30, scale=5)",
		"u": "FIXED_LEN_BYTE_ARRAY UUID", "j": "BYTE_ARRAY JSON", "jb": "BYTE_ARRAY JSON", "raw": "BYTE_ARRAY None",
		"tz":              "INT64 Timestamp(isAdjustedToUTC=true, timeUnit=microseconds, is_from_converted_type=false, force_set_converted_type=false)",
		"ts":              "INT64 Timestamp(isAdjustedToUTC=false, timeUnit=microseconds, is_from_converted_type=false, force_set_converted_type=false)",
		"ia.list.element": "INT32 Int(bitWidth=32, isSigned=true)", "t": "BYTE_ARRAY String",
	} {
		if got[path] != want {
			t.Errorf("%s: %s, want %s", path, got[path], want)
		}
	}
}

// Decimals of each physical width, negative ones in two's complement.
func TestParquetDecimals(t *testing.T) {
	b := setup(t, `create table money(id int primary key, small numeric(5,2), mid numeric(18,0), wide numeric(38,10));
		insert into money values (1, -1.5, -999999999999999999, -1234567890123456789012345678.0123456789),
			(2, 999.99, 0, 0.0000000001), (3, 0, 1, 1)`)
	in := b.in(t, "money")
	in.Format = exportrows.Parquet
	res := b.export(t, options(), in)
	bk, m := manifestOf(t, res)
	tbl := arrowTable(t, readAll(t, bk, m.Parts[0].Key))
	var got []string
	for row := range 3 {
		got = append(got, cellOf(tbl, 1, row)+" "+cellOf(tbl, 2, row)+" "+cellOf(tbl, 3, row))
	}
	want := "-1.5 -999999999999999999 -1234567890123456789012345678.0123456789|" +
		"999.99 0 1e-10|0 1 1"
	if strings.Join(got, "|") != want {
		t.Fatalf("decimals %q\nwant %q", strings.Join(got, "|"), want)
	}
}

// A value Parquet cannot hold fails the run with a terminal code naming
// the column; the same value goes to csv as it is.
func TestParquetRefusesWhatItCannotHold(t *testing.T) {
	for _, ddl := range []string{
		`create table odd(id int primary key, v numeric(10,2)); insert into odd values (1, 'NaN')`,
		`create table odd(id int primary key, v timestamptz); insert into odd values (1, 'infinity')`,
		`create table odd(id int primary key, v date); insert into odd values (1, '-infinity')`,
		`create table odd(id int primary key, v int[]); insert into odd values (1, '{{1,2},{3,4}}')`,
	} {
		b := setup(t, ddl)
		in := b.in(t, "odd")
		in.Format = exportrows.Parquet
		d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
		if d.State != "dead" || lastCode(d) != "X_EXPORT_VALUE_UNSUPPORTED" || !strings.Contains(d.LastError.Message, "column v") {
			t.Errorf("%s: %s %s", ddl, d.State, lastError(d))
		}
		in.Format, in.Run = exportrows.CSV, in.Run+"-csv"
		b.export(t, options(), in)
	}
}

// Row groups of RowGroupRows rows within one part.
func TestParquetRowGroups(t *testing.T) {
	b := setup(t, ordersDDL)
	o := options()
	o.RowGroupRows = 400
	in := b.in(t, "orders")
	in.Format, in.PageRows = exportrows.Parquet, 1000
	res := b.export(t, o, in)
	bk, m := manifestOf(t, res)
	r, err := file.NewParquetReader(bytes.NewReader(readAll(t, bk, m.Parts[0].Key)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.NumRowGroups() != 3 || r.NumRows() != 1000 {
		t.Fatalf("%d row groups, %d rows", r.NumRowGroups(), r.NumRows())
	}
}

// A row group's pages wait for its flush in temporary files, not on the
// heap; the files are unlinked at once and none is left behind, while the
// parts read back whole.
func TestParquetSpillsRowGroupsToUnlinkedFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	b := setup(t, ordersDDL)
	o := options()
	o.RowGroupRows = 300
	in := b.in(t, "orders")
	in.Format, in.PageRows = exportrows.Parquet, 1000
	res := b.export(t, o, in)
	bk, m := manifestOf(t, res)
	rows := int64(0)
	for _, p := range m.Parts {
		r, err := file.NewParquetReader(bytes.NewReader(readAll(t, bk, p.Key)))
		if err != nil {
			t.Fatal(err)
		}
		rows += r.NumRows()
		_ = r.Close()
	}
	if rows != m.Rows || rows == 0 {
		t.Fatalf("%d rows read back, manifest says %d", rows, m.Rows)
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Fatalf("%d files left in the temporary directory, first %s", len(left), left[0].Name())
	}
}
