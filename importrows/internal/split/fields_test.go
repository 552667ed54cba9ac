package split_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/split"
)

// show renders fields as `value` for unquoted and "value" for quoted ones.
func show(fields []split.Field) string {
	s := ""
	for _, f := range fields {
		if f.Quoted {
			s += fmt.Sprintf("%q ", f.Value)
		} else {
			s += fmt.Sprintf("`%s` ", f.Value)
		}
	}
	return s
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		delim, quote byte
		rec, want    string
	}{
		{',', '"', "a,b,c", "`a` `b` `c` "},
		{',', '"', "", "`` "},
		{',', '"', "a,,", "`a` `` `` "},
		{',', '"', `"",x`, `"" ` + "`x` "},
		{',', '"', `x,""`, "`x` " + `"" `},
		{',', '"', `"a,b","c""d"`, `"a,b" "c\"d" `},
		{',', '"', `""""`, `"\"" `},
		{',', '"', `"""a""",b`, `"\"a\"" ` + "`b` "},
		{',', '"', "\"x\r\ny\"", `"x\r\ny" `},
		{',', '"', "\"x\ny\",\r", "\"x\\ny\" `\r` "},
		{0, '"', "a,b", "`a` `b` "},
		{';', '"', `a;"b;c";d,e`, "`a` " + `"b;c" ` + "`d,e` "},
		{'\t', '"', "a\t\"b\"\"\t\"\tc", "`a` " + `"b\"\t" ` + "`c` "},
		{'|', '\'', `'a|b'|'it''s'`, `"a|b" "it's" `},
		{',', 0, `a"b,"c"`, "`a\"b` `\"c\"` "},
	} {
		p := split.FieldParser{Delim: tc.delim, Quote: tc.quote}
		fields, err := p.Parse([]byte(tc.rec))
		if err != nil || show(fields) != tc.want {
			t.Errorf("%q: got %s, %v; want %s", tc.rec, show(fields), err, tc.want)
		}
	}
}

func TestParseRefusesMalformedQuotes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rec, field, rule string
	}{
		{`a"b`, "1", split.RuleBareQuote},
		{`x,a"`, "2", split.RuleBareQuote},
		{`x,"a"b`, "2", split.RuleTextAfterQuote},
		{`"a" ,b`, "1", split.RuleTextAfterQuote},
		{`x,y,"abc`, "3", split.RuleUnclosedQuote},
		{`"a""`, "1", split.RuleUnclosedQuote},
	} {
		p := split.FieldParser{Quote: '"'}
		_, err := p.Parse([]byte(tc.rec))
		e, ok := errcode.As(err)
		if !ok || e.Code != errcode.ImportRecordInvalid || e.Meta[split.MetaField] != tc.field {
			t.Errorf("%q: got %v %v; want X_IMPORT_RECORD_INVALID at field %s", tc.rec, err, e, tc.field)
			continue
		}
		if len(e.Meta) != 2 || e.Meta[split.MetaRule] != tc.rule {
			t.Errorf("%q: meta %v, want the field and rule %s only", tc.rec, e.Meta, tc.rule)
		}
	}
}

// TestParseValuesAreIndependent checks that appending to one value does not
// overwrite the next, whether it is sliced from the record or unescaped.
func TestParseValuesAreIndependent(t *testing.T) {
	t.Parallel()
	p := split.FieldParser{Quote: '"'}
	fields, err := p.Parse([]byte(`"a""","b""",c`))
	if err != nil {
		t.Fatal(err)
	}
	for i := range fields {
		_ = append(fields[i].Value, 'X')
	}
	if got := show(fields); got != `"a\"" "b\"" `+"`c` " {
		t.Fatalf("got %s", got)
	}
}

func TestParseDoesNotAllocate(t *testing.T) {
	p := split.FieldParser{Quote: '"'}
	recs := [][]byte{[]byte(`a,"say ""hi""","two` + "\n" + `lines",,""`), []byte("a,b,c,d,e"), []byte(`"x",y`)}
	n := testing.AllocsPerRun(100, func() {
		for _, rec := range recs {
			if _, err := p.Parse(rec); err != nil {
				t.Fatal(err)
			}
		}
	})
	if n != 0 {
		t.Fatalf("Parse allocates %v times", n)
	}
}

func TestFieldParserValidate(t *testing.T) {
	t.Parallel()
	for _, p := range []split.FieldParser{{Delim: ':'}, {Quote: ','}, {Delim: ';', Quote: ';'}, {Quote: '\n'}} {
		if !errors.Is(p.Validate(), errcode.ConfigInvalid) {
			t.Errorf("%+v: want X_CONFIG_INVALID", p)
		}
	}
	for _, p := range []split.FieldParser{{}, {Quote: '"'}, {Delim: '\t', Quote: '"'}, {Delim: '|'}, {Delim: ';', Quote: '\''}} {
		if err := p.Validate(); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
}
