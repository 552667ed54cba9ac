package refdocs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Page is one reference page: its path under the repository and the body
// the code renders now.
type Page struct {
	Path string
	Body []byte
}

// Check compares the page with its file under root. With update it writes
// the body instead (creating the directory); otherwise it answers an error
// naming the page, the first line that differs and [Regenerate] when the
// file is missing or stale.
func (p Page) Check(root string, update bool) error {
	file := filepath.Join(root, filepath.FromSlash(p.Path))
	if update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		return os.WriteFile(file, p.Body, 0o644)
	}
	have, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("%s is missing (%w): run `%s`", p.Path, err, Regenerate)
	}
	if bytes.Equal(have, p.Body) {
		return nil
	}
	return fmt.Errorf("%s is stale: run `%s`\n%s", p.Path, Regenerate, firstDifference(have, p.Body))
}

// firstDifference answers the first line where have and want differ, both
// ways.
func firstDifference(have, want []byte) string {
	h, w := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	for i := 0; ; i++ {
		hl, hok := line(h, i)
		wl, wok := line(w, i)
		if hl != wl || hok != wok {
			return fmt.Sprintf("line %d:\n  file: %s\n  code: %s", i+1, hl, wl)
		}
	}
}

// line answers lines[i], or "(end of page)" past the last.
func line(lines []string, i int) (string, bool) {
	if i >= len(lines) {
		return "(end of page)", false
	}
	return lines[i], true
}
