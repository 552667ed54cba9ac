package split_test

import (
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/split"
)

var lenient = split.Splitter{Quote: '"', Lenient: true}

// TestScanLenient checks that a lenient splitter opens a quoted field only
// at a field's start, and that a strict one opens one at every quote.
func TestScanLenient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		s    split.Splitter
		doc  string
		want outcome
	}{
		{"quote inside a field is data", lenient, "1,37°36'37.8\"N\n2,x\n",
			outcome{Recs: []r{{"1,37°36'37.8\"N", 0, 1}, {"2,x", 16, 2}}, Lines: 2}},
		{"quoted field still spans lines", lenient, "1,\"a\nb\",c\"d\n2\n",
			outcome{Recs: []r{{"1,\"a\nb\",c\"d", 0, 1}, {"2", 12, 3}}, Lines: 3}},
		{"doubled quote inside a quoted field", lenient, "\"a\"\"\nb\"\nc\n",
			outcome{Recs: []r{{"\"a\"\"\nb\"", 0, 1}, {"c", 8, 3}}, Lines: 3}},
		{"quote after another delimiter", split.Splitter{Quote: '"', Lenient: true, Delim: ';'}, "a;\"b\nc\";d,\"e\n",
			outcome{Recs: []r{{"a;\"b\nc\";d,\"e", 0, 1}}, Lines: 2}},
		{"quote at a record's start after a record", lenient, "x\"\n\"y\nz\"\n",
			outcome{Recs: []r{{"x\"", 0, 1}, {"\"y\nz\"", 3, 2}}, Lines: 3}},
		{"unclosed quoted field", lenient, "a\n\"b\n",
			outcome{Recs: []r{{"a", 0, 1}}, Code: errcode.ImportRecordInvalid, Where: "2:2", Lines: 1}},
		{"strict opens at any quote", csvSplitter, "1,37°36'37.8\"N\n2,x\"\n",
			outcome{Recs: []r{{"1,37°36'37.8\"N\n2,x\"", 0, 1}}, Lines: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireSameAtEveryCut(t, tc.s, []byte(tc.doc), tc.want)
		})
	}
}

// TestParseLenient checks what lenient accepts: a quote inside an unquoted
// field is kept; a quoted field is still RFC 4180.
func TestParseLenient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ rec, want string }{
		{`1,37°36'37.8"N,x`, "`1` `37°36'37.8\"N` `x` "},
		{`a"b"c,"d"`, "`a\"b\"c` " + `"d" `},
		{`a",b"`, "`a\"` `b\"` "},
		{`"a,b",c"`, `"a,b" ` + "`c\"` "},
		{`"say ""hi""",x`, `"say \"hi\"" ` + "`x` "},
	} {
		p := split.FieldParser{Quote: '"', Lenient: true}
		fields, err := p.Parse([]byte(tc.rec))
		if err != nil || show(fields) != tc.want {
			t.Errorf("%q: got %s, %v; want %s", tc.rec, show(fields), err, tc.want)
		}
	}
	for _, rec := range []string{`x,"a"b`, `"a" ,b`, `x,"abc`} {
		p := split.FieldParser{Quote: '"', Lenient: true}
		if _, err := p.Parse([]byte(rec)); errcode.CodeOf(err) != errcode.ImportRecordInvalid {
			t.Errorf("%q: got %v; want X_IMPORT_RECORD_INVALID", rec, err)
		}
	}
	strict := split.FieldParser{Quote: '"'}
	if _, err := strict.Parse([]byte(`1,37°36'37.8"N`)); errcode.CodeOf(err) != errcode.ImportRecordInvalid {
		t.Errorf("strict: got %v; want X_IMPORT_RECORD_INVALID", err)
	}
}
