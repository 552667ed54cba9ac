package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The doc checker's rule on a page of every kind of line: the examples it
// finds, and the words of each, as TestEveryDocExampleIsRunByAScript's
// comment says.
func TestTheDocCheckerFindsExamplesByItsRule(t *testing.T) {
	dir := t.TempDir()
	page := "```sh\n" +
		"pipe migrate   # comment\n" + // 2
		"go run ./cmd/pipe demo\n" +
		"  $ pipe  jobs list\n" + // 4
		"pipe grants --role app_worker | psql \"$OWNER_URL\"\n" + // 5
		"pipe grants --role r --apply --database-url \"$OWNER_URL\" 2>err.txt\n" + // 6
		"pipe export users --where 'id > 4' --to ./out/\n" + // 7
		"```\n" +
		"```text\npipe jobs list [--queue Q]\n```\n" +
		"```console\n$ pipe queues list\npipe: an output line\n```\n" + // 13
		"````bash\n```\npipe --help\n````\n" + // 18
		"pipe outside a block\n"
	if err := os.WriteFile(filepath.Join(dir, "page.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []docExample{
		{2, []string{"pipe", "migrate"}},
		{4, []string{"pipe", "jobs", "list"}},
		{5, []string{"pipe", "grants", "--role", "app_worker"}},
		{6, []string{"pipe", "grants", "--role", "r", "--apply", "--database-url", "$OWNER_URL"}},
		{7, []string{"pipe", "export", "users", "--where", "id > 4", "--to", "./out/"}},
		{13, []string{"pipe", "queues", "list"}},
		{18, []string{"pipe", "--help"}},
	}
	if got := docExamples(t, dir, "page.md"); !reflect.DeepEqual(got, want) {
		t.Errorf("examples\n got %v\nwant %v", got, want)
	}
	script := "! exec pipe export users --where 'id > 4' --to ./out/ # comment"
	if got, want := scriptWords(script), []string{"!", "exec", "pipe", "export", "users", "--where", "id > 4", "--to", "./out/"}; !reflect.DeepEqual(got, want) {
		t.Errorf("script words %q, want %q", got, want)
	}
	if got, want := scriptWords("sql 'it''s'"), []string{"sql", "it's"}; !reflect.DeepEqual(got, want) {
		t.Errorf("script words %q, want %q", got, want)
	}
}
