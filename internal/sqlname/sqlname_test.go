package sqlname_test

import (
	"strings"
	"testing"
	"unicode/utf8"

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

func TestLengthFault(t *testing.T) {
	if f := sqlname.LengthFault("table", strings.Repeat("a", 63)); f != "" {
		t.Fatalf("63 bytes refused: %s", f)
	}
	long := strings.Repeat("é", 35) // 70 bytes
	f := sqlname.LengthFault("table", long)
	if !strings.Contains(f, "70 bytes, over PostgreSQL's 63-byte limit") || !utf8.ValidString(f) {
		t.Fatalf("fault %q", f)
	}
	if got := sqlname.LengthFaults("column", "id", long, long); len(got) != 2 {
		t.Fatalf("%d faults", len(got))
	}
}
