package exportrows

import "testing"

// identifierAt reads the identifier the server's error position points at:
// bare, quoted (with doubled quotes), dotted, non-ASCII; a quote that does
// not close, or no identifier, answers "".
func TestIdentifierAt(t *testing.T) {
	for sql, want := range map[string]string{
		"nme = 'x'":              "nme",
		`"Home town" = 'x'`:      `"Home town"`,
		`p."a""b".c > 1`:         `p."a""b".c`,
		"straße_2$ = 1":          "straße_2$",
		`"open = 1`:              "",
		"= 1":                    "",
		"t.nme)":                 "t.nme",
		"x.\"y\"\n)":             `x."y"`,
		"_under_score is null  ": "_under_score",
	} {
		if got := identifierAt([]rune(sql), 0); got != want {
			t.Errorf("identifierAt(%q) = %q, want %q", sql, got, want)
		}
	}
}
