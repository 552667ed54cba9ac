package refdocs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// A description's name, help and labels read back from its String form,
// quotes and constant labels included.
func TestADescriptionReadsBack(t *testing.T) {
	d := prometheus.NewDesc("rows_total", `Rows "seen", {by} queue.`, []string{"queue", "state"}, prometheus.Labels{"room": "outbox"})
	m, err := parseDesc(d)
	if err != nil {
		t.Fatal(err)
	}
	if m.name != "rows_total" || m.help != `Rows "seen", {by} queue.` || strings.Join(m.labels, " ") != `queue state room="outbox"` {
		t.Errorf("read %+v", m)
	}
}

// A stale page's error names the page, the command that regenerates it and
// the first line that differs; -update writes the page instead.
func TestAStalePageNamesItselfAndTheCommand(t *testing.T) {
	root := t.TempDir()
	page := Page{Path: "docs/reference/x.md", Body: []byte("# X\n\nnew\n")}
	if err := page.Check(root, true); err != nil {
		t.Fatal(err)
	}
	if err := page.Check(root, false); err != nil {
		t.Fatalf("a page just written is stale: %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "docs/reference/x.md"), []byte("# X\n\nold\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := page.Check(root, false)
	if err == nil {
		t.Fatal("a changed page is current")
	}
	for _, want := range []string{"docs/reference/x.md is stale", Regenerate, "line 3:", "file: old", "code: new"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
}

// A code span holding a backtick takes a longer fence, and a table cell's
// pipes are escaped once.
func TestCellsKeepTheirText(t *testing.T) {
	if got := code("a`b"); got != "``a`b``" {
		t.Errorf("code(a`b) = %s", got)
	}
	var b strings.Builder
	table(&b, []string{"k"}, [][]string{{code("a|b") + " and\nc"}})
	if want := "| `a\\|b` and c |\n"; !strings.HasSuffix(b.String(), want+"\n") {
		t.Errorf("table wrote %q, want it to end %q", b.String(), want)
	}
}
