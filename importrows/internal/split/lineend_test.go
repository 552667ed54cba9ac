package split_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/split"
)

var (
	crSplitter = split.Splitter{Quote: '"', End: split.CR}
	crLenient  = split.Splitter{Quote: '"', End: split.CR, Lenient: true}
	smallCR    = split.Splitter{Quote: '"', End: split.CR, MaxRecord: 4}
)

// crCases are files of classic Mac line ends: a record ends at a bare '\r'
// outside quotes, a '\n' is data to the splitter (the field parser refuses
// it outside quotes), and lines count the '\r' bytes.
var crCases = []struct {
	name string
	s    split.Splitter
	doc  string
	want outcome
}{
	{"records", crSplitter, "a,b\rc,d\r", outcome{Recs: []r{{"a,b", 0, 1}, {"c,d", 4, 2}}, Lines: 2}},
	{"final record without line end", crSplitter, "a\rb", outcome{Recs: []r{{"a", 0, 1}, {"b", 2, 2}}, Lines: 1}},
	{"carriage return ending the file", crSplitter, "a\rb\r", outcome{Recs: []r{{"a", 0, 1}, {"b", 2, 2}}, Lines: 2}},
	{"blank lines skipped and counted", crSplitter, "\ra\r\r\rb\r\r", outcome{Recs: []r{{"a", 1, 2}, {"b", 5, 5}}, Lines: 6}},
	{"crlf is a line end, then a line feed", crSplitter, "a\r\nb\r\n", outcome{Recs: []r{{"a", 0, 1}, {"\nb", 2, 2}, {"\n", 5, 3}}, Lines: 2}},
	{"line feed is data to the splitter", crSplitter, "a\nb\rc", outcome{Recs: []r{{"a\nb", 0, 1}, {"c", 4, 2}}, Lines: 1}},
	{"quoted line ends", crSplitter, "\"x\r\ny\",\"p\nq\"\r\"r\rs\",2\r",
		outcome{Recs: []r{{"\"x\r\ny\",\"p\nq\"", 0, 1}, {"\"r\rs\",2", 13, 3}}, Lines: 4}},
	{"bom", crSplitter, "\xEF\xBB\xBFa\rb\r", outcome{Recs: []r{{"a", 3, 1}, {"b", 5, 2}}, Lines: 2}},
	{"multibyte", crSplitter, "Zoë\r東京,\"🚀\r🚀\"\r", outcome{Recs: []r{{"Zoë", 0, 1}, {"東京,\"🚀\r🚀\"", 5, 2}}, Lines: 3}},
	{"record of MaxRecord bytes", smallCR, "abcd\r\"bc\"\rx", outcome{Recs: []r{{"abcd", 0, 1}, {`"bc"`, 5, 2}, {"x", 10, 3}}, Lines: 2}},
	{"record of MaxRecord+1 bytes", smallCR, "x\rabcde\ry\r", outcome{Recs: []r{{"x", 0, 1}}, Code: errcode.ImportRecordTooLarge, Where: "2:2", Lines: 1}},
	{"unclosed quote at EOF", crSplitter, "a\r\"b\rc\r", outcome{Recs: []r{{"a", 0, 1}}, Code: errcode.ImportRecordInvalid, Where: "2:2", Lines: 1}},
	{"lenient quote opens after a line end", crLenient, "a\"b\r\"c\rd\",e\r",
		outcome{Recs: []r{{`a"b`, 0, 1}, {"\"c\rd\",e", 4, 2}}, Lines: 3}},
}

func TestScanCR(t *testing.T) {
	t.Parallel()
	for _, tc := range crCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := scanWhole(t, tc.s, []byte(tc.doc)); !equal(got, tc.want) {
				t.Fatalf("\n got %v\nwant %v", got, tc.want)
			}
			requireSameAtEveryCut(t, tc.s, []byte(tc.doc), tc.want)
		})
	}
}

// swapEnds exchanges '\n' and '\r' bytes.
func swapEnds(s string) string {
	return strings.Map(func(c rune) rune {
		switch c {
		case '\n':
			return '\r'
		case '\r':
			return '\n'
		}
		return c
	}, s)
}

// A file of bare CRs splits and parses as its LF twin does, with '\n' and
// '\r' exchanged: the same records at the same offsets and lines, at every
// page edge, strict and lenient.
func TestCRFileReadsAsItsLFTwin(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(5, 8))
	alphabet := []string{"a", "b", ",", ",", `"`, `"`, `""`, "\n", "\n", " ", "é", "\xEF\xBB\xBF"}
	docs := []string{string(orders(16 << 10))}
	for range 5000 {
		var doc strings.Builder
		for range rnd.IntN(24) {
			doc.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		docs = append(docs, doc.String())
	}
	for _, lenient := range []bool{false, true} {
		lf := split.Splitter{Quote: '"', Lenient: lenient}
		cr := split.Splitter{Quote: '"', Lenient: lenient, End: split.CR}
		for _, doc := range docs {
			want := scanWhole(t, lf, []byte(doc))
			for i := range want.Recs {
				want.Recs[i].Text = swapEnds(want.Recs[i].Text)
			}
			twin := []byte(swapEnds(doc))
			if got := scanWhole(t, cr, twin); !equal(got, want) {
				t.Fatalf("%q (lenient %v):\n got %v\nwant %v", twin, lenient, got, want)
			}
			if got := scanCut(t, cr, twin, rnd.IntN(len(twin)+1)); !equal(got, want) {
				t.Fatalf("%q (lenient %v), cut:\n got %v\nwant %v", twin, lenient, got, want)
			}
			requireSameParse(t, []byte(doc), lenient)
		}
	}
}

// requireSameParse asserts that a CR field parser reads each record of the
// twin of doc as an LF one reads doc's, ends exchanged.
func requireSameParse(t *testing.T, doc []byte, lenient bool) {
	t.Helper()
	lf := split.FieldParser{Quote: '"', Lenient: lenient}
	cr := split.FieldParser{Quote: '"', Lenient: lenient, End: split.CR}
	_, _, _ = (&split.Splitter{Quote: '"', Lenient: lenient}).Scan(doc, 0, 1, true, func(rec []byte, _, _ int64) error {
		want, werr := lf.Parse(rec)
		got, err := cr.Parse([]byte(swapEnds(string(rec))))
		same := (err == nil) == (werr == nil) && len(got) == len(want)
		for i := 0; same && i < len(got); i++ {
			same = got[i].Quoted == want[i].Quoted && string(got[i].Value) == swapEnds(string(want[i].Value))
		}
		if !same {
			t.Fatalf("%q: got %s, %v; want %s, %v, ends exchanged", swapEnds(string(rec)), show(got), err, show(want), werr)
		}
		return nil
	})
}

// With End CR, a '\n' outside quotes refuses the record (COPY fails the
// file: "unquoted newline found in data"); inside quotes it is data.
func TestParseCRRefusesUnquotedLineFeed(t *testing.T) {
	t.Parallel()
	p := split.FieldParser{Quote: '"', End: split.CR}
	for rec, field := range map[string]string{"\n": "1", "a,b\nc": "2", "\"x\",\n": "2", "\na,\"b\"": "1", "a\n": "1"} {
		_, err := p.Parse([]byte(rec))
		e, ok := errcode.As(err)
		if !ok || e.Code != errcode.ImportRecordInvalid || e.Meta[split.MetaField] != field {
			t.Errorf("%q: got %v; want X_IMPORT_RECORD_INVALID at field %s", rec, err, field)
		}
	}
	for rec, want := range map[string]string{"\"a\nb\",c": "\"a\\nb\" `c` ", "\"\r\n\"": `"\r\n" `, "a,b": "`a` `b` "} {
		if got, err := p.Parse([]byte(rec)); err != nil || show(got) != want {
			t.Errorf("%q: got %s, %v; want %s", rec, show(got), err, want)
		}
	}
	lenient := split.FieldParser{Quote: '"', End: split.CR, Lenient: true}
	if _, err := lenient.Parse([]byte("a\"b\nc\"")); !errors.Is(err, errcode.ImportRecordInvalid) {
		t.Errorf("lenient: a line feed after a quote that is data: %v", err)
	}
}

// detectCases: the first line end outside quotes decides, as in COPY.
var detectCases = []struct {
	s    split.Splitter
	doc  string
	want split.LineEnd
}{
	{csvSplitter, "a,b\n1,2\r", split.LF},
	{csvSplitter, "a,b\r\n1,2\r", split.LF},
	{csvSplitter, "a,b\r1,2\r\n", split.CR},
	{csvSplitter, "a,b\r", split.CR},
	{csvSplitter, "\r", split.CR},
	{csvSplitter, "\r\n", split.LF},
	{csvSplitter, "\n\r", split.LF},
	{csvSplitter, "a,b", split.LF},
	{csvSplitter, "", split.LF},
	{csvSplitter, "\xEF\xBB\xBFa\rb", split.CR},
	{csvSplitter, "\"a\rb\"\r\n", split.LF},
	{csvSplitter, "\"a\nb\"\rc\n", split.CR},
	{csvSplitter, "\"\"\"\r\"\r", split.CR},
	{csvSplitter, "a\"b\rc\"\n", split.LF},
	{split.Splitter{Quote: '"', Lenient: true}, "a\"b\rc\"\n", split.CR},
	{split.Splitter{Quote: '"', Lenient: true}, "x;\"\r\";\"a\"\"\r\"\n", split.CR},
	{split.Splitter{Quote: '"', Lenient: true, Delim: ';'}, "x;\"\r\";\"a\"\"\r\"\n", split.LF},
	{split.Splitter{Quote: '"', Lenient: true}, "\xEF\xBB\xBF\"\r\"\r", split.CR},
	{split.Splitter{Quote: '"', Lenient: true}, "\xEF\xBB\xBF\"\r\"\n", split.LF},
	{ndjson, "{\"a\":\"\r\"}\n", split.CR},
}

// Detect answers the first line's end once the head holds it, at every
// page edge: before, it says it does not know (and LF).
func TestDetectAtEveryPageEdge(t *testing.T) {
	t.Parallel()
	for _, tc := range detectCases {
		doc := []byte(tc.doc)
		if end, known := tc.s.Detect(doc, true); !known || end != tc.want {
			t.Errorf("%q: %q, known %v; want %q", doc, end, known, tc.want)
			continue
		}
		for cut := range len(doc) {
			end, known := tc.s.Detect(doc[:cut], false)
			if (known && end != tc.want) || (!known && end != split.LF) {
				t.Errorf("%q cut at %d: %q, known %v; want %q", doc, cut, end, known, tc.want)
			}
			if first := bytes.IndexAny(doc, "\r\n"); known && cut <= first {
				t.Errorf("%q cut at %d: known before the first line end", doc, cut)
			}
		}
	}
}

func TestLineEndValidate(t *testing.T) {
	t.Parallel()
	if err := (&split.Splitter{End: ' '}).Validate(); !errors.Is(err, errcode.ConfigInvalid) {
		t.Errorf("splitter: %v", err)
	}
	if err := (&split.FieldParser{End: '\t'}).Validate(); !errors.Is(err, errcode.ConfigInvalid) {
		t.Errorf("field parser: %v", err)
	}
	for _, end := range []split.LineEnd{0, split.LF, split.CR} {
		if err := (&split.Splitter{Quote: '"', End: end}).Validate(); err != nil {
			t.Errorf("%q: %v", end, err)
		}
	}
}

func TestScanCRDoesNotAllocate(t *testing.T) {
	doc := []byte(swapEnds(string(orders(64 << 10))))
	p := split.FieldParser{Quote: '"', End: split.CR}
	fn := func(rec []byte, _, _ int64) error { _, err := p.Parse(rec); return err }
	if n := testing.AllocsPerRun(10, func() { _, _, _ = crSplitter.Scan(doc, 0, 1, true, fn) }); n != 0 {
		t.Fatalf("Scan and Parse allocate %v times", n)
	}
}
