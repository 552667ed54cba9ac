package pqread_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/parquet-go/parquet-go"

	"github.com/pipekit/pipe/importrows/internal/pqread"
)

// benchRow is the row of the benchmark file.
type benchRow struct {
	ID      [16]byte `parquet:"id,uuid"`
	Ref     string   `parquet:"ref"`
	Amount  int64    `parquet:"amount"`
	Comment string   `parquet:"comment"`
	At      int64    `parquet:"at,timestamp(microsecond)"`
}

// benchFile writes n rows in row groups of 128Ki rows.
func benchFile(b *testing.B, n int, opts ...parquet.WriterOption) []byte {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[benchRow](&buf, append(opts, parquet.MaxRowsPerRowGroup(128<<10))...)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	batch := make([]benchRow, 0, 4096)
	for i := range n {
		var id [16]byte
		_, _ = rand.Read(id[:])
		batch = append(batch, benchRow{id, uuid.UUID(id).String(), int64(i) * 37, fmt.Sprintf("comment number %d", i), start + int64(i)*1_000_123})
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := w.Write(batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkReadRowGroups reads 1,000,000 rows of five columns (a UUID, a
// UUID as a string, an int64, a string and a timestamp), uncompressed.
func BenchmarkReadRowGroups(b *testing.B) {
	benchRead(b, benchFile(b, 1_000_000))
}

// BenchmarkReadRowGroupsZstd reads the same rows in zstd pages, each
// decompressed twice: once into nothing by the guard, once by parquet-go.
func BenchmarkReadRowGroupsZstd(b *testing.B) {
	benchRead(b, benchFile(b, 1_000_000, parquet.Compression(&parquet.Zstd)))
}

func benchRead(b *testing.B, data []byte) {
	const rows = 1_000_000
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f := open(b, data)
		read := 0
		for g := range f.RowGroups() {
			err := f.ReadRowGroup(context.Background(), g, func(int64, []pqread.Value) error {
				read++
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		if read != rows {
			b.Fatalf("read %d rows, want %d", read, rows)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
