package sqlname_test

import (
	"testing"

	"github.com/pipekit/pipe/internal/sqlname"
)

func TestParseAndIdent(t *testing.T) {
	for in, want := range map[string]string{
		"orders": `"orders"`, "analytics.Orders Daily": `"analytics"."Orders Daily"`, `we"ird`: `"we""ird"`,
	} {
		r, ok := sqlname.Parse(in)
		if !ok || r.Ident() != want || r.String() != in {
			t.Errorf("%q: %v %s %s", in, ok, r.Ident(), r.String())
		}
	}
	for _, bad := range []string{"", " ", "a.b.c", ".a", "a.", "a. "} {
		if _, ok := sqlname.Parse(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}
