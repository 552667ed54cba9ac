package split_test

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
	"sync"
	"testing"

	"github.com/pipekit/pipe/importrows/internal/split"
)

// The benchmarks read the same 8 MiB of orders (see orders) as
// shared/anchors/csvspeed does: encoding/csv through a 1 MiB bufio.Reader,
// and the naive quote-aware newline scan with bytes.IndexAny.

var benchDoc = sync.OnceValue(func() []byte { return orders(8 << 20) })

func BenchmarkScan(b *testing.B) {
	doc := benchDoc()
	n := 0
	fn := func([]byte, int64, int64) error { n++; return nil }
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		n = 0
		if _, _, err := csvSplitter.Scan(doc, 0, 1, true, fn); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "records/op")
}

func BenchmarkScanAndParse(b *testing.B) {
	doc := benchDoc()
	p := split.FieldParser{Quote: '"'}
	fields := 0
	fn := func(rec []byte, _, _ int64) error {
		f, err := p.Parse(rec)
		fields += len(f)
		return err
	}
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		fields = 0
		if _, _, err := csvSplitter.Scan(doc, 0, 1, true, fn); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fields), "fields/op")
}

func BenchmarkEncodingCSV(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		r := csv.NewReader(bufio.NewReaderSize(bytes.NewReader(doc), 1<<20))
		r.ReuseRecord = true
		for {
			if _, err := r.Read(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkIndexAnyScan is the anchor's floor: count records with
// bytes.IndexAny over quotes and newlines.
func BenchmarkIndexAnyScan(b *testing.B) {
	doc := benchDoc()
	recs := 0
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		recs = 0
		inq := false
		for i := 0; i < len(doc); {
			j := bytes.IndexAny(doc[i:], "\"\n")
			if j < 0 {
				break
			}
			if doc[i+j] == '"' {
				inq = !inq
			} else if !inq {
				recs++
			}
			i += j + 1
		}
	}
	b.ReportMetric(float64(recs), "records/op")
}

// BenchmarkScanAndParseCR reads the orders with classic Mac line ends, as
// BenchmarkScanAndParse reads them with LF.
func BenchmarkScanAndParseCR(b *testing.B) {
	doc := []byte(swapEnds(string(benchDoc())))
	p := split.FieldParser{Quote: '"', End: split.CR}
	fields := 0
	fn := func(rec []byte, _, _ int64) error {
		f, err := p.Parse(rec)
		fields += len(f)
		return err
	}
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		fields = 0
		if _, _, err := crSplitter.Scan(doc, 0, 1, true, fn); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fields), "fields/op")
}
