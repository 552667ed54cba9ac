package pg

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
)

// MaxNameBytes is the longest name PostgreSQL keeps (NAMEDATALEN - 1 in a
// standard build). A longer name is cut to it with no more than a NOTICE,
// so a 70-byte table name would silently name the table its first 63
// bytes name: pipe refuses it instead.
const MaxNameBytes = 63

// CheckName refuses, with X_NAME_INVALID, a name PostgreSQL would not keep
// as given: empty, holding a NUL byte, not UTF-8, or longer than
// [MaxNameBytes]. what names its kind in the message ("column", "table").
// A long name is shown by its first 40 bytes; no other fault quotes it.
func CheckName(what, name string) error {
	if f := nameFault(what, name); f != "" {
		return invalid(f)
	}
	return nil
}

// nameFault answers why name is refused, or "".
func nameFault(what, name string) string {
	switch {
	case name == "":
		return "the " + what + " name is empty"
	case len(name) > MaxNameBytes:
		return fmt.Sprintf("the %s name %s… is %d bytes, over PostgreSQL's %d-byte limit for a name", what, head(name, 40), len(name), MaxNameBytes)
	case strings.IndexByte(name, 0) >= 0:
		return "the " + what + " name holds a NUL byte"
	case !utf8.ValidString(name):
		return "the " + what + " name is not UTF-8"
	}
	return ""
}

// QuoteName answers name as SQL writes it: bare when SQL reads it bare as
// itself — a lower-case ASCII letter or underscore, then letters, digits
// and underscores, and not a keyword — else in double quotes, a double
// quote inside doubled. It is PostgreSQL's quote_ident.
func QuoteName(name string) string {
	if bare(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// bare reports whether name reads as itself unquoted.
func bare(name string) bool {
	if name == "" || keywords[name] {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func invalid(fault string) error {
	return errcode.New(errcode.NameInvalid, "%s", fault).
		WithFix(`write the name as SQL does: table or schema.table, unquoted names folded to lower case, "Quoted Names" kept as written, each at most 63 bytes`)
}

// head answers at most n bytes of s, cut between characters.
func head(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:min(n, len(s))]
}
