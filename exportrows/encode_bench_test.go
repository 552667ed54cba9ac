package exportrows

import (
	"crypto/sha256"
	"encoding/binary"
	"io"
	"testing"

	"github.com/pipekit/pipe/blob"
)

// ordersRows answers n rows of the orders shape (uuid, uuid, bigint, text,
// timestamptz) as the server sends them in binary.
func ordersRows(n int) ([]column, [][][]byte) {
	cols := columnsOf(plan{Settings: Settings{Format: Parquet}, Columns: []colType{
		{Name: "id", OID: 2950}, {Name: "org_id", OID: 2950}, {Name: "total", OID: 20},
		{Name: "note", OID: 25}, {Name: "created_at", OID: 1184},
	}})
	notes := []string{"plain", "with, comma", `say "hi"`, "two\nlines", "Zoë Ærøskøbing", "東京 注文", "emoji 🚀 rocket"}
	rows := make([][][]byte, n)
	for i := range rows {
		id := make([]byte, 16)
		binary.BigEndian.PutUint64(id, uint64(i)*0x9E3779B97F4A7C15)
		binary.BigEndian.PutUint64(id[8:], uint64(i))
		org := make([]byte, 16)
		org[15] = byte(i % 50)
		rows[i] = [][]byte{id, org, binary.BigEndian.AppendUint64(nil, uint64(i*7919)), []byte(notes[i%7]),
			binary.BigEndian.AppendUint64(nil, uint64(8e17+int64(i)*1234567))}
	}
	return cols, rows
}

// BenchmarkEncoder measures what the client spends per row, the database
// aside: each encoder over 100,000 orders, with the part's checksum.
func BenchmarkEncoder(b *testing.B) {
	cols, rows := ordersRows(100_000)
	for _, set := range []Settings{
		{Format: CSV, Compression: blob.CompressionNone}, {Format: CSV, Compression: blob.CompressionGzip},
		{Format: CSV, Compression: blob.CompressionZstd}, {Format: NDJSON, Compression: blob.CompressionNone},
		{Format: Parquet, Compression: blob.CompressionNone}, {Format: Parquet, Compression: blob.CompressionZstd},
		{Format: Parquet, Compression: blob.CompressionGzip},
	} {
		set.RowGroupRows = len(rows)
		b.Run(string(set.Format)+"-"+string(set.Compression), func(b *testing.B) {
			var size int64
			for range b.N {
				sum := &summer{w: io.Discard, h: sha256.New()}
				enc, err := benchEncoder(sum, cols, set)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range rows {
					if err := enc.row(r); err != nil {
						b.Fatal(err)
					}
				}
				if err := enc.close(); err != nil {
					b.Fatal(err)
				}
				size = sum.n
			}
			b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(size), "bytes/part")
		})
	}
}

func benchEncoder(w io.Writer, cols []column, set Settings) (encoder, error) {
	if set.Format != Parquet {
		return newTextEncoder(w, cols, set)
	}
	e, err := newParquetEncoder(cols, set)
	if err == nil {
		e.reset(w)
	}
	return e, err
}
