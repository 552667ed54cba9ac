package console_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// browser answers a headless Chromium tab. Without Chromium on the machine
// the test is skipped, unless PIPE_REQUIRE_BROWSER is set (CI sets it, and
// installs Debian's chromium).
func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("PIPE_REQUIRE_BROWSER") != "" {
			t.Fatal("no chromium on PATH, and PIPE_REQUIRE_BROWSER is set")
		}
		t.Skip("no chromium on PATH: install Debian's chromium to run the browser tests")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 1000), chromedp.UserDataDir(t.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx); err != nil { // the first call starts the browser, untimed
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// shoot keeps a screenshot of the page under the test's artifacts.
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

type importIn struct {
	File string `json:"file"`
}

// flakyImport fails its second step with a terminal code until the fixed
// table holds a row: a dead import an operator mends and retries.
func flakyImport(pool *pgxpool.Pool) *pipeline.Job[importIn, int] {
	return pipeline.MustJob("orders.import", func(in importIn) string { return in.File },
		func(ctx context.Context, run *pipeline.Run[importIn]) (int, error) {
			if _, err := pipeline.Step(ctx, "read-header", func(context.Context) (int, error) { return 3, nil }); err != nil {
				return 0, err
			}
			return pipeline.Step(ctx, "load-rows", func(ctx context.Context) (int, error) {
				var n int
				if err := pool.QueryRow(ctx, `select count(*) from fixed`).Scan(&n); err != nil {
					return 0, err
				}
				if n == 0 {
					return 0, errcode.New(errcode.ImportHeaderMismatch, "the header does not match the table").
						WithFix("rename the file's columns")
				}
				return 42, nil
			})
		}, pipeline.JobOptions[importIn, int]{Queue: "imports"})
}

func TestInABrowserAnOperatorMendsADeadImport(t *testing.T) {
	ctx := browser(t)
	pool := fixtures.DB(t)
	if _, err := pool.Exec(ctx, `create table fixed (ok int)`); err != nil {
		t.Fatal(err)
	}
	job := flakyImport(pool)
	fixtures.StartWorker(t, pool, job)
	res, err := job.Enqueue(ctx, pool, importIn{File: "orders.csv"})
	if err != nil {
		t.Fatal(err)
	}
	fixtures.Drain(t, pool)
	admin := pipeline.NewAdmin(pool)
	srv := consoleOn(t, admin, console.Options{AllowActions: true, Manifests: []pipeline.Manifest{job.Describe()}})

	// The dead import: its failing step and its code, on its page.
	if err := do(ctx, chromedp.Navigate(srv.URL+"/jobs/"+res.ID)); err != nil {
		t.Fatal(err)
	}
	state, lastError, steps := text(t, ctx, "#state"), text(t, ctx, "#last-error"), text(t, ctx, "#steps")
	if state != "dead" || !strings.Contains(lastError, "X_IMPORT_HEADER_MISMATCH") || !strings.Contains(lastError, "rename the file's columns") {
		t.Fatalf("the dead import shows state %q, error %q", state, lastError)
	}
	if !strings.Contains(steps, "load-rows") || !strings.Contains(steps, "failed") {
		t.Fatalf("the steps table does not show the failing step: %q", steps)
	}
	shoot(t, ctx, "job-dead")

	// Mend the cause, press retry, and watch it complete without reloading.
	if _, err := pool.Exec(ctx, `insert into fixed values (1)`); err != nil {
		t.Fatal(err)
	}
	if err := do(ctx, chromedp.Click(chromedp.CSS("#retry")), chromedp.WaitVisible(chromedp.CSS(".notice"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#state", "done")
	shoot(t, ctx, "job-done")

	// Pause the queue from the queues page; a new run waits.
	if err := do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.Click(chromedp.CSS(`form[action="/queues/imports/pause"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action="/queues/imports/resume"]`)),
	); err != nil {
		t.Fatal(err)
	}
	waiting, err := job.Enqueue(ctx, pool, importIn{File: "later.csv"})
	if err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, "queues-paused")
	time.Sleep(2 * time.Second) // a worker would have claimed it by now, were the queue not paused
	if err := do(ctx, chromedp.Navigate(srv.URL+"/jobs/"+waiting.ID)); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#state", "ready")
	if err := do(ctx, chromedp.Navigate(srv.URL+"/"),
		chromedp.Click(chromedp.CSS(`form[action="/queues/imports/resume"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action="/queues/imports/pause"]`)),
		chromedp.Navigate(srv.URL+"/jobs/"+waiting.ID)); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#state", "done")
}

// waitText waits until the selected element's text is want; the page's own
// refresh must bring it, since the test does not reload.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var got string
	for time.Now().Before(deadline) {
		if got = text(t, ctx, sel); got == want {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s is %q, not %q, after a minute", sel, got, want)
}

func TestInABrowserEveryPageRendersWithAHundredThousandJobs(t *testing.T) {
	ctx := browser(t)
	pool := fixtures.DB(t)
	job := flakyImport(pool)
	ins := make([]importIn, 10_000)
	for batch := range 10 {
		for i := range ins {
			ins[i] = importIn{File: fmt.Sprintf("f-%d-%d.csv", batch, i)}
		}
		if _, err := job.EnqueueMany(ctx, pool, ins); err != nil {
			t.Fatal(err)
		}
	}
	var one string
	if err := pool.QueryRow(ctx, `select id::text from pipe.jobs limit 1`).Scan(&one); err != nil {
		t.Fatal(err)
	}
	srv := consoleOn(t, pipeline.NewAdmin(pool), console.Options{Manifests: []pipeline.Manifest{job.Describe()}})
	pages := map[string]string{"queues": "/", "jobs": "/jobs", "jobs-filtered": "/jobs?state=ready&name=orders.import",
		"job": "/jobs/" + one, "tasks": "/tasks", "workers": "/workers"}
	for name, path := range pages {
		if err := do(ctx, chromedp.Navigate(srv.URL+path)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h1, body := text(t, ctx, "h1"), text(t, ctx, "main")
		if h1 == "" || strings.Contains(body, "Something went wrong") {
			t.Fatalf("%s did not render: %q", name, h1)
		}
		shoot(t, ctx, name)
	}
	if err := do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	// Past the caps the depth is an estimate from a sample of the open
	// runs, shown as one: the hundred thousand, give or take a quarter.
	queues := text(t, ctx, "table")
	row := strings.Fields(strings.Split(queues, "\n")[1])
	if ready := estimated(row[1]); row[0] != "imports" || ready < 75_000 || ready > 125_000 {
		t.Fatalf("the queues page does not estimate the hundred thousand: %q", queues)
	}
}

// estimated answers the count an estimate cell (~950, ~12k, ~1.2M) shows,
// or -1 for a cell that is not one.
func estimated(cell string) float64 {
	digits, ok := strings.CutPrefix(cell, "~")
	if !ok {
		return -1
	}
	unit := 1.0
	switch {
	case strings.HasSuffix(digits, "k"):
		unit, digits = 1e3, strings.TrimSuffix(digits, "k")
	case strings.HasSuffix(digits, "M"):
		unit, digits = 1e6, strings.TrimSuffix(digits, "M")
	}
	f, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		return -1
	}
	return f * unit
}

// text answers the visible text of the first element sel selects.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("read %s: %v", sel, err)
	}
	return s
}

// do runs steps, each group bounded by 30 seconds so a lost click fails the
// test instead of hanging it.
func do(ctx context.Context, steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return chromedp.Do(ctx, steps...)
}
