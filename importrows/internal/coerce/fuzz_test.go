package coerce

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

// FuzzAppendCSV coerces arbitrary cells to every corpus type: no panic;
// Value agrees with AppendCSV; an accepted value is one well-formed CSV
// field whose text, coerced again, gives the same field.
func FuzzAppendCSV(f *testing.F) {
	for i := range corpusTypes {
		for _, in := range corpus {
			f.Add(uint8(i), uint8(String), []byte(in))
		}
	}
	f.Add(uint8(4), uint8(Number), []byte("1.0e2"))
	f.Add(uint8(24), uint8(JSON), []byte(`[1,null]`))
	types := make([]Type, len(corpusTypes))
	for i, s := range corpusTypes {
		types[i] = mustType(f, s)
	}
	f.Fuzz(func(t *testing.T, ti, kind uint8, in []byte) {
		typ := types[int(ti)%len(types)]
		c := Cell{Kind: Kind(kind % 5), Bytes: in, Bool: len(in)%2 == 0}
		out, code := typ.AppendCSV([]byte("x,"), c)
		_, vcode := typ.Value(c)
		if code != vcode {
			t.Fatalf("%s %s: AppendCSV code %q, Value code %q", typ, show(c), code, vcode)
		}
		if code != "" || typ.IsNull(c) {
			return
		}
		field, ok := unquoteCSV(out[2:])
		if !ok {
			t.Fatalf("%s %s: malformed CSV field %q", typ, show(c), out[2:])
		}
		again, code := typ.AppendCSV(nil, Cell{Kind: String, Bytes: field})
		if code != "" || !bytes.Equal(again, out[2:]) {
			t.Fatalf("%s %s: emitted %q, which coerces to %q (%q)", typ, show(c), out[2:], again, code)
		}
	})
}

// unquoteCSV reads one CSV field: quoted with doubled quotes, or bare
// without delimiter, quote or line break.
func unquoteCSV(b []byte) ([]byte, bool) {
	if len(b) == 0 || b[0] != '"' {
		return b, !bytes.ContainsAny(b, ",\"\r\n") && !bytes.Equal(b, []byte(`\.`))
	}
	if len(b) < 2 || b[len(b)-1] != '"' {
		return nil, false
	}
	inner := b[1 : len(b)-1]
	if bytes.Count(inner, []byte(`"`))%2 != 0 || bytes.Contains(bytes.ReplaceAll(inner, []byte(`""`), nil), []byte(`"`)) {
		return nil, false
	}
	return bytes.ReplaceAll(inner, []byte(`""`), []byte(`"`)), true
}

// fuzzInputs answers the String inputs kept in testdata/fuzz/FuzzAppendCSV,
// so that TestPostgresAcceptsWhatAppendCSVAccepts tries them in PostgreSQL.
func fuzzInputs(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzAppendCSV", "*"))
	var out []string
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		last := lines[len(lines)-1]
		if s, ok := strings.CutPrefix(last, "[]byte("); ok {
			if v, err := strconv.Unquote(strings.TrimSuffix(s, ")")); err == nil {
				out = append(out, v)
			}
		}
	}
	return out
}

// FuzzParseType: a type ParseType takes writes, as String, a spelling that
// parses to the same type and keeps every number of the modifier given (a
// numeric scale wrapped to 32 bits is refused, not taken as another); a
// refusal is X_IMPORT_TABLE_INVALID.
func FuzzParseType(f *testing.F) {
	for _, s := range []string{"numeric(10,2)", "character varying(20)[]", "timestamp(3) with time zone", "int8", "character",
		"bpchar", "decimal(10, 2)", "numeric(10,4294967298)", "time(7)", "varchar(0)", "numeric(1000,-1000)", "text[][]", "TIMESTAMPTZ ( 6 )"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := ParseType(s)
		if err != nil {
			if errcode.CodeOf(err) != errcode.ImportTableInvalid {
				t.Fatalf("%q: refusal coded %q", s, errcode.CodeOf(err))
			}
			return
		}
		again, err := ParseType(typ.String())
		if err != nil || again != typ {
			t.Fatalf("%q parses to %s, which parses to %s (%v)", s, typ, again, err)
		}
		given, _ := modifier(strings.ToLower(s))
		written, _ := modifier(typ.String())
		if len(given) > len(written) || !slices.Equal(given, written[:len(given)]) {
			t.Fatalf("%q parses to %s: modifier %v written as %v", s, typ, given, written)
		}
	})
}

// modifier answers the integers between the parentheses of a type's
// spelling.
func modifier(s string) ([]int64, bool) {
	open, end := strings.IndexByte(s, '('), strings.IndexByte(s, ')')
	if open < 0 || end < open {
		return nil, false
	}
	var out []int64
	for _, f := range strings.Split(s[open+1:end], ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// FuzzArrayLiteral: the literal ArrayLiteral writes for a JSON array is one
// the array literal reader takes back unchanged, with as many top-level
// elements as encoding/json finds.
func FuzzArrayLiteral(f *testing.F) {
	for _, s := range []string{`[1,"a b",null,true]`, `[[1,2],[3,4]]`, `["{\"x\":1}",{"y":[1]}]`, `[]`, `[[1],[2,3]]`, `["NULL","\\",""]`, `[" x ","é"]`} {
		f.Add([]byte(s))
	}
	unknownArray := Type{base: unknown, array: true, mod: -1}
	f.Fuzz(func(t *testing.T, in []byte) {
		lit, ok := ArrayLiteral(nil, Cell{Kind: JSON, Bytes: in})
		if !ok {
			return
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(in, &elems); err != nil {
			t.Fatalf("%q is no JSON array (%v), yet written as %q", in, err, lit)
		}
		again, ok := unknownArray.appendArray(nil, Cell{Kind: String, Bytes: lit})
		if !ok || !bytes.Equal(again, lit) {
			t.Fatalf("%q written as %q, read back as %q (%v)", in, lit, again, ok)
		}
		e, _ := arrayElements(Cell{Kind: String, Bytes: lit})
		n := 0
		for {
			_, more, ok := e.next(nil)
			if !ok || !more {
				break
			}
			n++
		}
		if n != len(elems) {
			t.Fatalf("%q has %d elements, its literal %q %d", in, len(elems), lit, n)
		}
	})
}
