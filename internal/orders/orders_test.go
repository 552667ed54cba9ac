package orders_test

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/pipekit/pipe/internal/orders"
)

// The file is the generator's: a header, n records of five fields with the
// awkward cases among them, the same bytes for the same seed.
func TestWriteIsTheGeneratorsShapeAndDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	for _, w := range []struct {
		buf  *bytes.Buffer
		seed uint64
	}{{&a, 7}, {&b, 7}, {&c, 8}} {
		if err := orders.Write(w.buf, 500, w.seed); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Fatal("the same seed must write the same file, another seed another")
	}
	recs, err := csv.NewReader(bytes.NewReader(a.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 501 || recs[0][0] != "id" || recs[0][4] != "created_at" {
		t.Fatalf("%d records, header %v", len(recs), recs[0])
	}
	var multiline bool
	for _, r := range recs[1:] {
		if len(r) != 5 {
			t.Fatalf("record of %d fields", len(r))
		}
		multiline = multiline || bytes.ContainsRune([]byte(r[3]), '\n')
	}
	if !multiline {
		t.Fatal("no note with a newline in quotes among 500 orders")
	}
}
