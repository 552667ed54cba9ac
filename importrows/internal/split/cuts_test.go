package split_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows/internal/split"
)

// misleading are files built to mislead a cutter that looks for a line end
// near each cut: quoted line ends at and across the edges, a quoted field
// of line ends and doubled quotes longer than several ranges, quoted text
// that reads as records, CRLF and bare-CR files, lenient quotes.
var misleading = []struct {
	name string
	s    split.Splitter
	doc  string
}{
	{"quotes across every edge", split.Splitter{Quote: '"', MaxRecord: 256},
		strings.Repeat("1,\"x\ny\n\"\"z\n\",2\n", 40)},
	{"a quoted field longer than a range", split.Splitter{Quote: '"', MaxRecord: 4096},
		"a,b\n1,\"" + strings.Repeat("\n\"\"x,\n\"\"", 300) + "\",2\n3,\"\n\"\n" + strings.Repeat("4,5\n", 30)},
	{"quoted text that reads as records", split.Splitter{Quote: '"', MaxRecord: 512},
		strings.Repeat("k,\"\n9,no\n9,no\n\"\n", 25)},
	{"crlf inside and outside quotes", split.Splitter{Quote: '"', MaxRecord: 256},
		strings.Repeat("1,\"a\r\nb\"\r\n\r\n2,c\r\n", 30)},
	{"bare cr line ends", split.Splitter{Quote: '"', MaxRecord: 256, End: split.CR},
		strings.Repeat("1,\"a\rb\nc\"\r2,d\r", 30)},
	{"lenient quotes in unquoted fields", split.Splitter{Quote: '"', Lenient: true, MaxRecord: 256},
		strings.Repeat("1,37\"36'N,\"x\ny\"\n", 30)},
	{"ndjson", split.Splitter{MaxRecord: 256},
		strings.Repeat("{\"a\":\"x\\ny\"}\n\n", 40)},
	{"unclosed quote at the end", split.Splitter{Quote: '"', MaxRecord: 64},
		strings.Repeat("1,2\n", 40) + "3,\"open\n" + strings.Repeat("5,6\n", 5)},
}

// TestCutsMatchTheSequentialRead cuts each misleading file at many range
// sizes and chunk sizes, reads every range as a child would (from its mark
// to the next, the next mark taken as the end of the data) and asserts that
// the ranges' records, offsets and lines, one after the other, are the
// sequential read's, and its refusal too.
func TestCutsMatchTheSequentialRead(t *testing.T) {
	for _, c := range misleading {
		want := readWhole(t, c.s, c.doc)
		for _, every := range []int64{1, 7, 16, 33, 100, 1000} {
			for _, chunk := range []int{limit(c.s) + 2, limit(c.s) + 61, 4 * limit(c.s)} {
				t.Run(fmt.Sprintf("%s/every%d/chunk%d", c.name, every, chunk), func(t *testing.T) {
					marks, err := c.s.Cuts(reader(c.doc), split.Mark{Off: 0, Line: 1}, every, chunk)
					if err != nil {
						t.Fatal(err)
					}
					got := scanRanges(t, c.s, c.doc, marks)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("marks %v:\n got %v\nwant %v", marks, got, want)
					}
				})
			}
		}
	}
}

// TestCutsSplitEvenly shows the cuts land on the first record start at
// least every bytes on, however large the chunk, so a file is shared out
// evenly.
func TestCutsSplitEvenly(t *testing.T) {
	s := split.Splitter{Quote: '"', MaxRecord: 64}
	doc := strings.Repeat("12345,\"a\nb\"\n", 1000) // 12 bytes a record, 2 lines
	marks, err := s.Cuts(reader(doc), split.Mark{Off: 0, Line: 1}, 3000, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(marks) != 4 {
		t.Fatalf("%d ranges, want 4: %v", len(marks), marks)
	}
	for i, m := range marks {
		if m.Off%12 != 0 || m.Line != 1+m.Off/6 {
			t.Errorf("mark %d at %+v is not a record start on its line", i, m)
		}
		if i > 0 && (m.Off-marks[i-1].Off < 3000 || m.Off-marks[i-1].Off >= 3000+12) {
			t.Errorf("range %d is %d bytes", i-1, m.Off-marks[i-1].Off)
		}
	}
}

// TestNaiveCutsAreMisled proves the misleading files mislead: cutting each
// at the first line end after the size, as a cutter without the splitter
// would, reads other records than the sequential read.
func TestNaiveCutsAreMisled(t *testing.T) {
	for _, c := range misleading[:3] {
		want := readWhole(t, c.s, c.doc)
		marks := []split.Mark{{Off: 0, Line: 1}}
		for off := 33; off < len(c.doc); off += 33 {
			nl := strings.IndexByte(c.doc[off:], '\n')
			if nl < 0 || off+nl+1 >= len(c.doc) {
				break
			}
			off += nl + 1
			marks = append(marks, split.Mark{Off: int64(off), Line: 1 + int64(strings.Count(c.doc[:off], "\n"))})
		}
		if got := scanRanges(t, c.s, c.doc, marks); reflect.DeepEqual(got, want) {
			t.Errorf("%s: a naive cut read the file right; it does not mislead", c.name)
		}
	}
}

func reader(doc string) split.ReadFunc {
	return func(off int64, n int) ([]byte, bool, error) {
		end := min(int(off)+n, len(doc))
		return []byte(doc[off:end]), end == len(doc), nil
	}
}

func readWhole(t *testing.T, s split.Splitter, doc string) outcome {
	return scanRanges(t, s, doc, []split.Mark{{Off: 0, Line: 1}})
}

// scanRanges reads each range from its mark to the next (the last to the
// end) as its own data, and gathers the records and the first refusal.
func scanRanges(t *testing.T, s split.Splitter, doc string, marks []split.Mark) outcome {
	var o outcome
	for i, m := range marks {
		end := int64(len(doc))
		if i+1 < len(marks) {
			end = marks[i+1].Off
		}
		fn := func(rec []byte, off, line int64) error {
			o.Recs = append(o.Recs, record{string(rec), off, line})
			return nil
		}
		_, lines, err := s.Scan([]byte(doc[m.Off:end]), m.Off, m.Line, true, fn)
		o.Lines += lines
		if err != nil {
			o.fail(t, err)
			return o
		}
	}
	return o
}
