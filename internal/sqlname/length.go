package sqlname

import (
	"fmt"
	"unicode/utf8"
)

// MaxBytes is the longest name PostgreSQL keeps (NAMEDATALEN - 1 in a
// standard build). A longer name is cut to it with no more than a NOTICE,
// so a 70-byte table name would silently name the table its first 63
// bytes name: pipe refuses it instead.
const MaxBytes = 63

// LengthFault answers why a name of the kind what ("table", "column") is
// refused when it is longer than [MaxBytes], or "" when it is not. A long
// name is shown by its first 40 bytes.
func LengthFault(what, name string) string {
	if len(name) <= MaxBytes {
		return ""
	}
	return fmt.Sprintf("the %s name %s… is %d bytes, over PostgreSQL's %d-byte limit for a name", what, head(name, 40), len(name), MaxBytes)
}

// LengthFaults answers the faults of the names of the kind what.
func LengthFaults(what string, names ...string) []string {
	var out []string
	for _, n := range names {
		if f := LengthFault(what, n); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// head answers at most n bytes of s, cut between characters.
func head(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:min(n, len(s))]
}
