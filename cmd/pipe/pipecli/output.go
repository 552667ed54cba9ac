package pipecli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"
)

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// table is a tabwriter with the house column layout.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer, header ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	t.row(header...)
	return t
}

func (t *table) row(cells ...string) {
	fmt.Fprintln(t.tw, strings.Join(cells, "\t"))
}

func (t *table) flush() error { return t.tw.Flush() }

// stamp renders an instant in UTC to the second; the zero instant is "-".
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// stampPtr is stamp for an optional instant.
func stampPtr(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return stamp(*t)
}

// orDash answers s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// truncate shortens s to at most n runes, marking a cut with "…", and folds
// it onto one line so a table stays a table.
func truncate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// nameAction is what pausing or resuming a queue or a task prints with
// --json.
type nameAction struct {
	Queue  string `json:"queue,omitempty"`
	Task   string `json:"task,omitempty"`
	Action string `json:"action"`
}

// emit prints res with --json, else line.
func (a *app) emit(res any, line string) error {
	if a.json {
		return printJSON(a.stdout, res)
	}
	_, err := fmt.Fprintln(a.stdout, line)
	return err
}
