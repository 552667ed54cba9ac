package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Every JSON file the README's tour shows — a ```json block — is a file of
// a tour script (testdata/script/tour_*.txtar), the same text but for its
// spacing, so that the file a reader copies is the one the suite runs.
func TestTheTourFilesAreTheScriptsFiles(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	files := scriptFiles(t, "testdata/script/tour_*.txtar")
	blocks := fencedBlocks(string(raw), "json")
	if len(blocks) == 0 {
		t.Fatal("the README shows no JSON file: the check reads nothing")
	}
	for _, b := range blocks {
		if !files[strings.Join(strings.Fields(b.text), " ")] {
			t.Errorf("README.md:%d: this JSON is no file of a tour script", b.line)
		}
	}
}

// scriptFiles answers the files of the scripts matching pattern, each with
// its runs of white space one space.
func scriptFiles(t *testing.T, pattern string) map[string]bool {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no script matches %s (%v)", pattern, err)
	}
	out := map[string]bool{}
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			out[strings.Join(strings.Fields(string(f.Data)), " ")] = true
		}
	}
	return out
}

// fencedBlock is the text of one fenced code block and the line it opens on.
type fencedBlock struct {
	line int
	text string
}

// fencedBlocks answers the blocks of md whose info string is lang.
func fencedBlocks(md, lang string) []fencedBlock {
	var out []fencedBlock
	var cur *fencedBlock
	for i, line := range strings.Split(md, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			if strings.TrimSpace(strings.TrimPrefix(line, "```")) == lang {
				cur = &fencedBlock{line: i + 1}
			} else {
				cur = &fencedBlock{line: -1}
			}
		case cur != nil && strings.HasPrefix(line, "```"):
			if cur.line > 0 {
				out = append(out, *cur)
			}
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	return out
}
