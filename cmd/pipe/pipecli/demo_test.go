package pipecli_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
	"github.com/pipekit/pipe/views"
)

// executions answers each step's executions by name.
func executions(steps []pipeline.StepDetail) map[string]int {
	out := map[string]int{}
	for _, s := range steps {
		out[s.Name] = s.Executions
	}
	return out
}

func TestDemoEndsDoneAfterOneRetry(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "demo", "--json")
	wantOK(t, r)
	rep := decode[struct {
		Database string
		Import   importrows.Result
		Export   exportrows.Manifest
		Subject  json.RawMessage
		Webhook  json.RawMessage // demo_webhook_test.go reads it
		Rollup   struct {
			Backfill, Late          rollup.Result
			Day                     time.Time
			Before, After, OrgAfter int64
			Refresh                 views.Result
		}
		Onboard pipeline.RunDetail
	}](t, r.stdout)
	if ro := rep.Rollup; ro.Backfill.Rows != 20000 || ro.Backfill.Written != ro.Backfill.Buckets || ro.After != ro.Before+1 ||
		ro.Late.Written != 1 || ro.Late.Rows >= 20000 || !ro.Refresh.Concurrently || ro.OrgAfter != 1 {
		t.Fatalf("the demo rollup: %+v; want every order rolled up, the late order's day alone moved by one, and the view refreshed concurrently", ro)
	}
	if rep.Export.Rows != 20000 || len(rep.Export.Parts) != 4 || rep.Export.Format != exportrows.Parquet {
		t.Fatalf("the demo export manifest: %d rows in %d %s parts; want 20000 rows in 4 parquet parts",
			rep.Export.Rows, len(rep.Export.Parts), rep.Export.Format)
	}
	if rep.Import.Rows != 20000 || rep.Import.Refused != 2 {
		t.Fatalf("the demo import wrote %d rows and refused %d; want 20000 and 2", rep.Import.Rows, rep.Import.Refused)
	}
	d := rep.Onboard
	if d.State != "done" || d.Attempt != 2 {
		t.Fatalf("the demo run is %s after attempt %d, want done after 2", d.State, d.Attempt)
	}
	got := executions(d.Steps)
	if got["provision"] != 1 || got["send-welcome"] != 2 || got["record"] != 1 {
		t.Fatalf("executions = %v, want provision 1, send-welcome 2, record 1", got)
	}
	if d.LastError == nil || d.LastError.Code != "X_DEMO_MAILER_DEFERRED" {
		t.Fatalf("last error = %+v, want the planned failure", d.LastError)
	}
}

func TestDemoTextShowsJournalAndSteps(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "demo")
	wantOK(t, r)
	for _, row := range [][]string{{"state", "done"}, {"steps"}, {"journal"},
		{"provision", "completed", "1", "-", `"acct-ada"`},
		{"send-welcome", "completed", "2", "X_DEMO_MAILER_DEFERRED", "true"},
		{"provision ran its function once"}, {"send-welcome ran its function twice"}} {
		if !hasRow(r.stdout, row...) {
			t.Fatalf("demo output lacks the row %q:\n%s", row, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "imported 20000 rows into demo_orders") || !strings.Contains(r.stdout, "2 rows refused") ||
		!strings.Contains(r.stdout, "exported 20000 rows of demo_orders to 4 Parquet parts") {
		t.Fatalf("the demo does not tell its import:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "attempt.failed") {
		t.Fatalf("the journal lacks the failed attempt:\n%s", r.stdout)
	}
}

// The README's first command runs any number of times: a second demo on the
// same database (its tables, views and runs there from the first) ends done.
func TestDemoRunsTwice(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for range 2 {
		wantOK(t, b.pipe(t, "demo", "--json"))
	}
}

// The demo says where its database lives, and leaves nothing in the
// temporary directory: not its CSV, not the error report, not the export.
// (It sets TMPDIR, so it does not run in parallel; TestEmbeddedDefault
// checks the private cluster's directory.)
func TestDemoSaysWhereAndLeavesNoFiles(t *testing.T) {
	b := setup(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	r := b.pipe(t, "demo")
	wantOK(t, r)
	var db string
	if err := b.pool.QueryRow(t.Context(), `select current_database()`).Scan(&db); err != nil {
		t.Fatal(err)
	}
	cc := b.pool.Config().ConnConfig
	want := fmt.Sprintf("the demo's database: database %s on %s:%d\n", db, cc.Host, cc.Port)
	if !strings.HasPrefix(r.stdout, want) {
		t.Fatalf("the demo does not open with where its database lives (%q):\n%s", want, r.stdout)
	}
	if !strings.Contains(r.stdout, "importing "+tmp) {
		t.Fatalf("the demo did not write its CSV under TMPDIR %s:\n%s", tmp, r.stdout)
	}
	var left []string
	_ = filepath.WalkDir(tmp, func(path string, _ fs.DirEntry, err error) error {
		if path != tmp {
			left = append(left, path)
		}
		return err
	})
	if len(left) > 0 {
		t.Fatalf("the demo left %v in the temporary directory", left)
	}
}
