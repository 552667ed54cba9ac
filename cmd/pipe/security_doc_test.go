package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every promise of docs/security.md's threat model names a test, and every
// test it names exists: a renamed or deleted test fails here until the page
// is mended.
func TestEveryPromiseOfTheThreatModelNamesItsTest(t *testing.T) {
	raw, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	defined := testFuncs(t, "../..")
	name := regexp.MustCompile("`((?:Test|Fuzz)[A-Za-z0-9_]+)`")
	rows := 0
	lines := strings.Split(string(raw), "\n")
	for i, line := range lines {
		header := i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|---")
		if !strings.HasPrefix(line, "| ") || header {
			continue
		}
		rows++
		names := name.FindAllStringSubmatch(line, -1)
		if len(names) == 0 {
			t.Errorf("a promise names no test: %s", line)
		}
		for _, n := range names {
			if !defined[n[1]] {
				t.Errorf("docs/security.md names %s, which no test file defines", n[1])
			}
		}
	}
	if rows < 20 {
		t.Fatalf("read %d promises from docs/security.md", rows)
	}
}

// testFuncs answers the names of the Test and Fuzz functions under root.
func testFuncs(t *testing.T, root string) map[string]bool {
	t.Helper()
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)[A-Za-z0-9_]+)\(`)
	found := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			found[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
