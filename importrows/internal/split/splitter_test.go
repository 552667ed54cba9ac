package split_test

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/split"
)

var (
	csvSplitter = split.Splitter{Quote: '"'}
	ndjson      = split.Splitter{}
	small       = split.Splitter{Quote: '"', MaxRecord: 4}
)

type r = record

var scanCases = []struct {
	name string
	s    split.Splitter
	doc  string
	want outcome
}{
	{"records", csvSplitter, "a,b\nc,d\n", outcome{Recs: []r{{"a,b", 0, 1}, {"c,d", 4, 2}}, Lines: 2}},
	{"final record without newline", csvSplitter, "a\nb", outcome{Recs: []r{{"a", 0, 1}, {"b", 2, 2}}, Lines: 1}},
	{"crlf", csvSplitter, "a\r\nb\r\n", outcome{Recs: []r{{"a", 0, 1}, {"b", 3, 2}}, Lines: 2}},
	{"carriage return ending the file", csvSplitter, "a\r\nb\r", outcome{Recs: []r{{"a", 0, 1}, {"b", 3, 2}}, Lines: 1}},
	{"lone carriage return is data", csvSplitter, "a\rb\n", outcome{Recs: []r{{"a\rb", 0, 1}}, Lines: 1}},
	{"blank lines skipped and counted", csvSplitter, "\na\n\r\n\nb\n\n",
		outcome{Recs: []r{{"a", 1, 2}, {"b", 6, 5}}, Lines: 6}},
	{"blank crlf lines", csvSplitter, "\r\n\r\na\r\n\r\n", outcome{Recs: []r{{"a", 4, 3}}, Lines: 4}},
	{"whitespace line is a record", csvSplitter, " \n", outcome{Recs: []r{{" ", 0, 1}}, Lines: 1}},
	{"only blank", csvSplitter, "\r", outcome{}},
	{"empty", csvSplitter, "", outcome{}},
	{"bom at offset 0", csvSplitter, "\xEF\xBB\xBFa\nb\n", outcome{Recs: []r{{"a", 3, 1}, {"b", 5, 2}}, Lines: 2}},
	{"bom then quote", csvSplitter, "\xEF\xBB\xBF\"a\"\n", outcome{Recs: []r{{`"a"`, 3, 1}}, Lines: 1}},
	{"bom alone", csvSplitter, "\xEF\xBB\xBF", outcome{}},
	{"bom with MaxRecord below its size", split.Splitter{Quote: '"', MaxRecord: 1}, "\xEF\xBB\xBFa\nb", outcome{Recs: []r{{"a", 3, 1}, {"b", 5, 2}}, Lines: 1}},
	{"part of a bom is data", csvSplitter, "\xEF\xBBa\n", outcome{Recs: []r{{"\xEF\xBBa", 0, 1}}, Lines: 1}},
	{"bom later is data", csvSplitter, "a\n\xEF\xBB\xBFb\n", outcome{Recs: []r{{"a", 0, 1}, {"\xEF\xBB\xBFb", 2, 2}}, Lines: 2}},
	{"doubled quotes", csvSplitter, "\"say \"\"hi\"\"\",x\ny\n",
		outcome{Recs: []r{{`"say ""hi""",x`, 0, 1}, {"y", 15, 2}}, Lines: 2}},
	{"newline inside quotes", csvSplitter, "\"a\nb\",c\nd\n", outcome{Recs: []r{{"\"a\nb\",c", 0, 1}, {"d", 8, 3}}, Lines: 3}},
	{"crlf inside quotes", csvSplitter, "\"a\r\nb\"\r\nc\r\n", outcome{Recs: []r{{"\"a\r\nb\"", 0, 1}, {"c", 8, 3}}, Lines: 3}},
	{"blank lines inside quotes", csvSplitter, "x,\"\n\n\"\ny", outcome{Recs: []r{{"x,\"\n\n\"", 0, 1}, {"y", 7, 4}}, Lines: 3}},
	{"quoted final record", csvSplitter, "a\n\"b\nc\"", outcome{Recs: []r{{"a", 0, 1}, {"\"b\nc\"", 2, 2}}, Lines: 2}},
	{"multibyte", csvSplitter, "Zoë,é\n東京,注文\n🚀,\"🚀\n🚀\"\n",
		outcome{Recs: []r{{"Zoë,é", 0, 1}, {"東京,注文", 8, 2}, {"🚀,\"🚀\n🚀\"", 22, 3}}, Lines: 4}},
	{"record of MaxRecord bytes", small, "abcd\n\"bc\"\r\nx", outcome{Recs: []r{{"abcd", 0, 1}, {`"bc"`, 5, 2}, {"x", 11, 3}}, Lines: 2}},
	{"record of MaxRecord+1 bytes", small, "x\nabcde\ny\n", outcome{Recs: []r{{"x", 0, 1}}, Code: errcode.ImportRecordTooLarge, Where: "2:2", Lines: 1}},
	{"final record of MaxRecord bytes", small, "x\nabcd\r", outcome{Recs: []r{{"x", 0, 1}, {"abcd", 2, 2}}, Lines: 1}},
	{"final record of MaxRecord+1 bytes", small, "x\nabcde", outcome{Recs: []r{{"x", 0, 1}}, Code: errcode.ImportRecordTooLarge, Where: "2:2", Lines: 1}},
	{"quoted newlines count toward MaxRecord", small, "\"\n\n\n\"\n", outcome{Code: errcode.ImportRecordTooLarge, Where: "0:1"}},
	{"unclosed quote at EOF", csvSplitter, "a\n\"b\nc\n", outcome{Recs: []r{{"a", 0, 1}}, Code: errcode.ImportRecordInvalid, Where: "2:2", Lines: 1}},
	{"unclosed quote past MaxRecord", small, "a\n\"bcde", outcome{Recs: []r{{"a", 0, 1}}, Code: errcode.ImportRecordTooLarge, Where: "2:2", Lines: 1}},
	{"ndjson quote is a byte", ndjson, "{\"a\":\"b\"}\n\"\n\r\nx", outcome{Recs: []r{{`{"a":"b"}`, 0, 1}, {`"`, 10, 2}, {"x", 14, 4}}, Lines: 3}},
	{"ndjson bom", ndjson, "\xEF\xBB\xBF{}\n", outcome{Recs: []r{{"{}", 3, 1}}, Lines: 1}},
	{"ndjson too large", split.Splitter{MaxRecord: 2}, "{}\n{\"\"}\n", outcome{Recs: []r{{"{}", 0, 1}}, Code: errcode.ImportRecordTooLarge, Where: "3:2", Lines: 1}},
}

func TestScan(t *testing.T) {
	t.Parallel()
	for _, tc := range scanCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := scanWhole(t, tc.s, []byte(tc.doc)); !equal(got, tc.want) {
				t.Fatalf("\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

// TestScanAtEveryPageEdge cuts each document at every byte: inside quotes,
// between '\r' and '\n', inside multibyte characters and the BOM.
func TestScanAtEveryPageEdge(t *testing.T) {
	t.Parallel()
	for _, tc := range scanCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireSameAtEveryCut(t, tc.s, []byte(tc.doc), tc.want)
		})
	}
	t.Run("records arrive whole", func(t *testing.T) {
		t.Parallel()
		doc := orders(4 << 10)
		for cut := range len(doc) {
			for _, rec := range scanCut(t, csvSplitter, doc, cut).Recs {
				if !utf8.ValidString(rec.Text) {
					t.Fatalf("cut at %d: record at %d is not whole UTF-8", cut, rec.Off)
				}
			}
		}
		requireSameAtEveryCut(t, csvSplitter, doc, scanWhole(t, csvSplitter, doc))
	})
}

func TestScanLeavesPartialRecord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s        split.Splitter
		page     string
		consumed int
		lines    int64
		code     errcode.Code
	}{
		{csvSplitter, "a\nbc", 2, 1, ""},
		{csvSplitter, "a\n\"b\nc", 2, 1, ""},
		{csvSplitter, "\xEF\xBB\xBFab", 0, 0, ""},
		{split.Splitter{Quote: '"', MaxRecord: 1}, "\xEF\xBB", 0, 0, ""},
		{small, "abcd\r", 0, 0, ""},
		{small, "abcde", 0, 0, errcode.ImportRecordTooLarge},
		{small, "\"abc", 0, 0, ""},
		{small, "\"abcd", 0, 0, errcode.ImportRecordTooLarge},
		{small, "x\n\"\n\n\n\n", 2, 1, errcode.ImportRecordTooLarge},
	} {
		var o outcome
		c, lines, err := tc.s.Scan([]byte(tc.page), 0, 1, false, collector(t, limit(tc.s), &o))
		if c != tc.consumed || lines != tc.lines || errcode.CodeOf(err) != tc.code {
			t.Errorf("%q: consumed %d, lines %d, err %v; want %d, %d, %s", tc.page, c, lines, err, tc.consumed, tc.lines, tc.code)
		}
	}
}

func TestScanStopsAtCallbackError(t *testing.T) {
	t.Parallel()
	n := 0
	c, lines, err := csvSplitter.Scan([]byte("a\n\nb\nc\n"), 10, 5, true, func([]byte, int64, int64) error {
		if n++; n == 2 {
			return errStop
		}
		return nil
	})
	if !errors.Is(err, errStop) || c != 3 || lines != 2 {
		t.Fatalf("consumed %d, lines %d, err %v; want 3, 2, stop", c, lines, err)
	}
}

func TestScanDoesNotAllocate(t *testing.T) {
	doc := orders(64 << 10)
	fn := func([]byte, int64, int64) error { return nil }
	if n := testing.AllocsPerRun(10, func() { _, _, _ = csvSplitter.Scan(doc, 0, 1, true, fn) }); n != 0 {
		t.Fatalf("Scan allocates %v times", n)
	}
}

func TestSplitterValidate(t *testing.T) {
	t.Parallel()
	for _, s := range []split.Splitter{{Quote: '\n'}, {Quote: '\r'}, {MaxRecord: -1}} {
		if !errors.Is(s.Validate(), errcode.ConfigInvalid) {
			t.Errorf("%+v: want X_CONFIG_INVALID", s)
		}
	}
	for _, s := range []split.Splitter{{}, csvSplitter, {Quote: '\'', MaxRecord: 1}} {
		if err := s.Validate(); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
}

// equal compares outcomes, treating nil and empty record lists alike.
func equal(a, b outcome) bool {
	if len(a.Recs) == 0 && len(b.Recs) == 0 {
		a.Recs, b.Recs = nil, nil
	}
	return a.String() == b.String()
}
