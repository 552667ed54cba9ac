package coerce

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
