package importrows

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/coerce"
)

// FuzzNDJSONCells checks the NDJSON decoder against encoding/json: a line
// is taken exactly when it is one JSON object whose keys are all columns,
// and each column's cell is the object's value (absent or null a NULL, a
// string its text, a number its text, true or false a Bool, an object or
// array its JSON); a key that is no column is X_IMPORT_FIELD_UNKNOWN naming
// at most 63 bytes of it, cut at a character, and anything else refused is
// X_IMPORT_RECORD_INVALID.
func FuzzNDJSONCells(f *testing.F) {
	for _, s := range []string{`{"id":1,"name":"a"}`, ` {"tags":[1,{"x":null}],"n":-0.5e3}` + "\r", `{"id":1,"id":"2"}`, `{"zz":1}`, `[1]`, `null`,
		`{"name":"\u00e9\ud800"}`, `{"` + strings.Repeat("é", 40) + `":1}`, `{"n":1}{"n":2}`, "{\"n\":1}\r{\"n\":2}", `{"x y":true,"b":false}`} {
		f.Add([]byte(s), "x y")
	}
	f.Fuzz(func(t *testing.T, rec []byte, extra string) {
		if bytes.IndexByte(rec, '\n') >= 0 {
			return // the splitter ends a line at LF
		}
		names := []string{"id", "name", "tags", "n", extra}
		cols := make([]column, len(names))
		for i, n := range names {
			cols[i] = column{name: n}
		}
		cells, f := newNDJSONDecoder(cols).cells(rec, nil)
		field, code := f.field, f.code
		var obj map[string]any
		dec := json.NewDecoder(bytes.NewReader(rec))
		dec.UseNumber()
		ok := dec.Decode(&obj) == nil && obj != nil && !dec.More() && onlySpace(rec[dec.InputOffset():])
		var unknown []string
		for k := range obj {
			if !contains(names, k) {
				unknown = append(unknown, k)
			}
		}
		switch {
		case !ok:
			if code != errcode.ImportRecordInvalid || field != "" {
				t.Fatalf("%q is no one JSON object, decoded %v, %q, %q", rec, cells, field, code)
			}
		case len(unknown) > 0:
			if code != errcode.ImportFieldUnknown || !namesAPrefix(field, unknown) {
				t.Fatalf("%q has keys %q that are no column, refused %q naming %q", rec, unknown, code, field)
			}
		case code != "":
			t.Fatalf("%q refused %q (%q)", rec, code, field)
		default:
			for i, n := range names {
				if want := obj[n]; !cellIs(cells[i], want) {
					t.Fatalf("%q: column %q is %+v, encoding/json reads %#v", rec, n, cells[i], want)
				}
			}
		}
	})
}

func onlySpace(b []byte) bool { return len(bytes.Trim(b, " \t\r\n")) == 0 }

func contains(names []string, k string) bool {
	for _, n := range names {
		if n == k {
			return true
		}
	}
	return false
}

// namesAPrefix reports whether field is one of keys, or its first bytes up
// to 63 cut at a character boundary.
func namesAPrefix(field string, keys []string) bool {
	if len(field) > 63 || !utf8.ValidString(field) {
		return false
	}
	for _, k := range keys {
		if field == k || len(k) > 63 && strings.HasPrefix(k, field) && len(field) > 59 {
			return true
		}
	}
	return false
}

// cellIs reports whether c is the cell of the value encoding/json decoded.
func cellIs(c coerce.Cell, want any) bool {
	switch w := want.(type) {
	case nil:
		return c.Kind == coerce.Null
	case string:
		return c.Kind == coerce.String && string(c.Bytes) == w
	case bool:
		return c.Kind == coerce.Bool && c.Bool == w
	case json.Number:
		return c.Kind == coerce.Number && string(c.Bytes) == string(w)
	}
	if c.Kind != coerce.JSON {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(c.Bytes))
	dec.UseNumber()
	var got any
	return dec.Decode(&got) == nil && reflect.DeepEqual(got, want)
}
