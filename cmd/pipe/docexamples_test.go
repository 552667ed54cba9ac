package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Every CLI example of the docs is run by a script of testdata/script
// (TestScripts), so that an example that stops working fails the suite;
// an example that no script runs fails here, naming its file and line.
//
// The docs are README.md and every docs/**/*.md but docs/reference/, which
// is generated. A CLI example is a line inside a fenced code block whose
// info string is sh, shell, bash or console that, after its leading spaces
// and an optional "$ " prompt, starts with "pipe " (in a console block,
// only a line with the prompt: the others are output). Its command is that
// line as a shell reads it, up to a " # comment" or the first operator
// (| || & && ; < > 2>): `pipe grants --role app_worker | psql "$OWNER_URL"`
// is the command `pipe grants --role app_worker`.
//
// A script runs the command when one of the lines of its own text (above
// its files), after an optional "! " and an optional "exec ", is the same
// words: the example's split as a shell splits them ('...' and "..."
// quotes, \ escapes), the script line's as testscript does ('...' quotes,
// a doubled ' for a quote inside), variables unexpanded on both sides; the
// spaces between words do not count. An example quoted with single quotes
// reads alike in both.
//
// A synopsis with [optional] parts is no example: the docs write it in a
// ```text block, and docs/reference/cli.md lists every command and flag.
func TestEveryDocExampleIsRunByAScript(t *testing.T) {
	run := scriptCommands(t, "testdata/script")
	found := 0
	for _, doc := range docFiles(t, "../..") {
		for _, ex := range docExamples(t, "../..", doc) {
			found++
			if !run[wordsKey(ex.words)] {
				t.Errorf("%s:%d: no script of cmd/pipe/testdata/script runs %q", doc, ex.line, strings.Join(ex.words, " "))
			}
		}
	}
	if found == 0 {
		t.Fatal("no CLI example found in README.md or docs/: the checker reads nothing")
	}
}

// docExample is one CLI example: the line it is on and its command's words.
type docExample struct {
	line  int
	words []string
}

// docFiles answers README.md and docs/**/*.md under root, but
// docs/reference/, as paths relative to root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		switch {
		case err != nil:
			return err
		case d.IsDir() && filepath.ToSlash(rel) == "docs/reference":
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(rel, ".md"):
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// docExamples answers the CLI examples of the doc at root/rel.
func docExamples(t *testing.T, root, rel string) []docExample {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	var found []docExample
	var fence codeFence
	for i, line := range strings.Split(string(raw), "\n") {
		if fence.advance(line) {
			continue
		}
		if cmd, ok := fence.example(line); ok {
			found = append(found, docExample{line: i + 1, words: shellWords(cmd)})
		}
	}
	return found
}

// scriptCommands answers the commands the scripts under dir run, keyed by
// wordsKey: each line of a script's own text (not of its files) with its
// "! " and "exec " taken off.
func scriptCommands(t *testing.T, dir string) map[string]bool {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no script in %s (%v)", dir, err)
	}
	run := map[string]bool{}
	for _, path := range paths {
		a, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(a.Comment), "\n") {
			words := scriptWords(line)
			if len(words) > 0 && words[0] == "!" {
				words = words[1:]
			}
			if len(words) > 0 && words[0] == "exec" {
				words = words[1:]
			}
			run[wordsKey(words)] = true
		}
	}
	return run
}

// wordsKey answers a command's words as one comparable string.
func wordsKey(words []string) string { return strings.Join(words, "\x00") }
