package importrows

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
)

// An unknown NDJSON key past 63 bytes is reported cut where a character
// begins: cut at byte 63, a key of 40 é's was reported ending in half of
// one (found by FuzzNDJSONCells).
func TestAnUnknownKeyIsCutAtACharacter(t *testing.T) {
	for _, key := range []string{strings.Repeat("é", 40), "a" + strings.Repeat("€", 30), strings.Repeat("x", 62) + "😀"} {
		_, f := newNDJSONDecoder([]column{{name: "id"}}).cells([]byte(`{"`+key+`":1}`), nil)
		field, code := f.field, f.code
		if code != errcode.ImportFieldUnknown || !utf8.ValidString(field) || len(field) > 63 || len(field) < 60 || !strings.HasPrefix(key, field) {
			t.Errorf("%q: reported %q (%d bytes), %q", key, field, len(field), code)
		}
	}
}
