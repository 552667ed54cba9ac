package split_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/split"
)

// The differential tests take encoding/csv (FieldsPerRecord -1, LazyQuotes
// false) as the reference. What differs by design is normalised here, in the
// comparison, never in the package:
//
//   - BOM: encoding/csv reads a leading byte order mark as data (and a quote
//     after it as a bare quote); Scan skips it, so the reference reads doc
//     without it.
//   - "\r\n" inside a quoted field: encoding/csv rewrites it to "\n"; Parse
//     keeps the data verbatim, so "\r\n" in our values is compared as "\n".
//
// What needs no normalisation, checked against the encoding/csv source:
// it drops the "\r" of a line's "\r\n" and a "\r" ending the file (so does
// Scan); it skips only empty lines, "\n" or "\r\n" or a final "\r" (so does
// Scan) and keeps a whitespace-only line as a record (so does Scan).

// ours splits and parses doc, with values normalised as above.
func ours(doc []byte) ([][]string, error) {
	var recs [][]string
	p := split.FieldParser{Quote: '"'}
	s := split.Splitter{Quote: '"', MaxRecord: max(len(doc), 1)}
	_, _, err := s.Scan(doc, 0, 1, true, func(rec []byte, _, _ int64) error {
		fields, err := p.Parse(rec)
		if err != nil {
			return err
		}
		var r []string
		for _, f := range fields {
			r = append(r, strings.ReplaceAll(string(f.Value), "\r\n", "\n"))
		}
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

// theirs reads doc, without a leading BOM, with encoding/csv.
func theirs(doc []byte) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(doc, []byte("\xEF\xBB\xBF"))))
	r.FieldsPerRecord, r.ReuseRecord = -1, true
	var recs [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, slices.Clone(rec))
	}
}

// requireSameAsEncodingCSV asserts that ours matches theirs on doc: the same
// records where encoding/csv accepts doc, X_IMPORT_RECORD_INVALID where it
// refuses a quote. Any other encoding/csv error fails the test.
func requireSameAsEncodingCSV(t testing.TB, doc []byte) {
	t.Helper()
	want, werr := theirs(doc)
	got, err := ours(doc)
	switch {
	case errors.Is(werr, csv.ErrBareQuote) || errors.Is(werr, csv.ErrQuote):
		if !errors.Is(err, errcode.ImportRecordInvalid) {
			t.Fatalf("%q: encoding/csv refuses (%v), we answer %q, %v", doc, werr, got, err)
		}
	case werr != nil:
		t.Fatalf("%q: encoding/csv fails unexpectedly: %v", doc, werr)
	case err != nil || !slices.EqualFunc(got, want, slices.Equal):
		t.Fatalf("%q:\n got %q, %v\nwant %q", doc, got, err, want)
	}
}

var csvSeeds = []string{
	"a,b\nc,d\n", "a,b\r\nc", "\"a\r\nb\",c\r\n", "\xEF\xBB\xBF\"a\",b\n", "\n\r\n \n\r",
	"\"say \"\"hi\"\"\",\"\"\n,,\n", "a\"b\n", "\"a\"b\n", "\"abc", "\"a\"\r", "a\r\r\n\"\r\"\r\n",
	"Zoë,\"東京\n🚀\"\n", "\"\"\"\",\"\n\"\n", "a,\"\"\"\n", "x\n\xEF\xBB\xBFy\n",
}

func TestMatchesEncodingCSV(t *testing.T) {
	t.Parallel()
	for _, doc := range csvSeeds {
		requireSameAsEncodingCSV(t, []byte(doc))
	}
	requireSameAsEncodingCSV(t, orders(256<<10))
}

// TestMatchesEncodingCSVOnRandomDocuments draws documents from the bytes
// that matter to CSV, so most of them are refused and many are not.
func TestMatchesEncodingCSVOnRandomDocuments(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", ",", ",", `"`, `"`, `""`, "\n", "\r", "\r\n", " ", "é", "\xEF\xBB\xBF"}
	for range 20000 {
		var doc []byte
		for range rnd.IntN(24) {
			doc = append(doc, alphabet[rnd.IntN(len(alphabet))]...)
		}
		requireSameAsEncodingCSV(t, doc)
		want := scanWhole(t, csvSplitter, doc)
		if got := scanCut(t, csvSplitter, doc, rnd.IntN(len(doc)+1)); !equal(got, want) {
			t.Fatalf("%q:\n got %v\nwant %v", doc, got, want)
		}
	}
}

// FuzzSplitMatchesEncodingCSV checks Scan and Parse against encoding/csv,
// and that cutting the document into two pages at cut, with or without
// quoting, with MaxRecord limit+1 and with bare-CR line ends, gives the
// records of one page and never a record longer than MaxRecord.
func FuzzSplitMatchesEncodingCSV(f *testing.F) {
	for i, doc := range csvSeeds {
		f.Add([]byte(doc), uint16(i), uint8(i))
	}
	f.Add(orders(2<<10), uint16(1000), uint8(120))
	f.Fuzz(func(t *testing.T, doc []byte, cut uint16, limit uint8) {
		requireSameAsEncodingCSV(t, doc)
		at := int(cut) % (len(doc) + 1)
		for _, s := range []split.Splitter{{Quote: '"', MaxRecord: int(limit) + 1}, {MaxRecord: int(limit) + 1}, csvSplitter, crSplitter} {
			want := scanWhole(t, s, doc)
			if got := scanCut(t, s, doc, at); !equal(got, want) {
				t.Fatalf("%+v, cut at %d:\n got %v\nwant %v", s, at, got, want)
			}
		}
	})
}
