package console_test

import (
	"context"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// In a browser, a queue whose name holds / % ? # and a space, or is two
// dots (which a browser reads as .. however escaped), is paused and
// resumed by its own buttons: the browser posts to the path as drawn.
func TestInABrowserAQueueWithAnOddNameIsPausedByItsButton(t *testing.T) {
	ctx := browser(t)
	pool := fixtures.DB(t)
	admin := pipeline.NewAdmin(pool)
	for _, name := range []string{oddName, ".."} {
		job := pipeline.MustJob("odd.job", func(h hostile) string { return h.Note },
			func(ctx context.Context, run *pipeline.Run[hostile]) (int, error) { return 0, nil },
			pipeline.JobOptions[hostile, int]{Queue: name})
		srv := consoleOn(t, admin, console.Options{AllowActions: true, Manifests: []pipeline.Manifest{job.Describe()}})
		if err := do(ctx, chromedp.Navigate(srv.URL+"/"),
			chromedp.Click(chromedp.CSS(`form[action$="/pause"] button`)),
			chromedp.WaitVisible(chromedp.CSS(`form[action$="/resume"]`))); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if paused, _ := admin.PausedQueues(t.Context()); !slices.Equal(paused, []string{name}) {
			t.Fatalf("paused %q, want %q", paused, name)
		}
		if err := do(ctx, chromedp.Click(chromedp.CSS(`form[action$="/resume"] button`)),
			chromedp.WaitVisible(chromedp.CSS(`form[action$="/pause"]`))); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 0 {
			t.Fatalf("paused after resume %q", paused)
		}
	}
}
