package coerce

import (
	"testing"

	"github.com/pipekit/pipe/errcode"
)

// refused marks a case AppendCSV must refuse.
const refused = "<refused>"

// A tcase is one cell and the CSV field AppendCSV must append for it, or
// refused.
type tcase struct {
	in   Cell
	want string
}

func str(s string) Cell { return Cell{Kind: String, Bytes: []byte(s)} }
func num(s string) Cell { return Cell{Kind: Number, Bytes: []byte(s)} }
func raw(s string) Cell { return Cell{Kind: JSON, Bytes: []byte(s)} }
func bln(v bool) Cell   { return Cell{Kind: Bool, Bool: v} }
func null() Cell        { return Cell{Kind: Null} }
func mustType(t testing.TB, s string) Type {
	t.Helper()
	typ, err := ParseType(s)
	if err != nil {
		t.Fatalf("ParseType(%q): %v", s, err)
	}
	return typ
}

// runCases checks each case's field, and that Value agrees with
// AppendCSV on whether the cell is accepted and whether it is NULL.
func runCases(t *testing.T, typ string, cases []tcase) {
	t.Helper()
	ty := mustType(t, typ)
	for _, c := range cases {
		dst := []byte("x,")
		got, code := ty.AppendCSV(dst, c.in)
		field := string(got[2:])
		v, vcode := ty.Value(c.in)
		switch {
		case c.want == refused && code != errcode.ImportFieldInvalid:
			t.Errorf("%s %s: AppendCSV = %q (code %q), want refused", typ, show(c.in), field, code)
		case c.want != refused && (code != "" || field != c.want):
			t.Errorf("%s %s: AppendCSV = %q (code %q), want %q", typ, show(c.in), field, code, c.want)
		case code != vcode:
			t.Errorf("%s %s: Value code %q, AppendCSV code %q", typ, show(c.in), vcode, code)
		case code == "" && (v == nil) != (field == ""):
			t.Errorf("%s %s: Value %v for field %q", typ, show(c.in), v, field)
		case code != "" && len(got) != len(dst):
			t.Errorf("%s %s: refused but appended %q", typ, show(c.in), got[len(dst):])
		}
	}
}

func show(c Cell) string {
	switch c.Kind {
	case Null:
		return "Null"
	case Bool:
		if c.Bool {
			return "Bool(true)"
		}
		return "Bool(false)"
	}
	return [...]string{String: "String", Number: "Number", JSON: "JSON"}[c.Kind] + "(" + quote(c.Bytes) + ")"
}

func quote(b []byte) string { return "`" + string(b) + "`" }

func TestNullRule(t *testing.T) {
	for _, typ := range []string{"integer", "numeric", "uuid", "date", "timestamptz", "jsonb", "bytea", "boolean", "integer[]", "real"} {
		runCases(t, typ, []tcase{{null(), ""}, {str(""), ""}, {str(" \t\r\n"), ""}})
	}
	for _, typ := range []string{"text", "varchar(3)", "char(3)"} {
		runCases(t, typ, []tcase{{null(), ""}, {str(""), `""`}, {str("  "), "  "}})
	}
}

func TestCSVQuoting(t *testing.T) {
	runCases(t, "text", []tcase{
		{str("plain"), "plain"},
		{str(" padded "), " padded "},
		{str("a,b"), `"a,b"`},
		{str(`say "hi"`), `"say ""hi"""`},
		{str("two\nlines"), "\"two\nlines\""},
		{str("cr\r"), "\"cr\r\""},
		{str(`\.`), `"\."`},
		{str(`\.x`), `\.x`},
		{str(`"`), `""""`},
	})
	runCases(t, "integer[]", []tcase{{str("{1,2}"), `"{1,2}"`}, {str("{1}"), "{1}"}})
}
