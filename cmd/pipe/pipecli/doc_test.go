package pipecli

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// The package doc's command list names every command the root holds.
func TestThePackageDocListsEveryCommand(t *testing.T) {
	raw, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		words, ok := strings.CutPrefix(line, "//\tpipe ")
		if !ok {
			continue
		}
		words, _, _ = strings.Cut(words, "  ") // the description follows a gap
		paths := []string{"pipe"}
		for _, w := range strings.Fields(words) {
			if w != strings.ToLower(w) || strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[") {
				break
			}
			var next []string
			for _, p := range paths {
				for _, alt := range strings.Split(w, "|") {
					next = append(next, p+" "+alt)
				}
			}
			paths = next
		}
		for _, p := range paths {
			listed[p] = true
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if !sub.HasSubCommands() && !listed[sub.CommandPath()] {
				t.Errorf("doc.go does not list %q", sub.CommandPath())
			}
			walk(sub)
		}
	}
	walk((&app{}).rootCommand())
}
