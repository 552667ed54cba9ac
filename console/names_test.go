package console_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// oddName holds every character a path gives meaning: a slash, a percent
// sign, a question mark, a hash and a space.
const oddName = "eu/nightly 100%?x#y"

// press finds the form on page whose action ends in verb, posts it through
// the browser as the button would, and answers the page the redirect
// lands on.
func press(t *testing.T, browser *http.Client, base, page, verb string) string {
	t.Helper()
	var action string
	for _, a := range attrs(page) {
		if strings.HasSuffix(a, "/"+verb) && (strings.HasPrefix(a, "/queues/") || strings.HasPrefix(a, "/tasks/")) {
			action = a
		}
	}
	if action == "" {
		t.Fatalf("no %s form on the page", verb)
	}
	resp, err := browser.PostForm(base+action, url.Values{"csrf": {csrfOf(t, page)}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST %s: %d", action, resp.StatusCode)
	}
	_, _, landed := get(t, browser, base+resp.Header.Get("Location"))
	return landed
}

// A queue and a task whose names hold / % ? # and a space are paused and
// resumed from the console's own forms, over HTTP.
func TestNamesWithPathCharactersArePausedAndResumedFromTheConsole(t *testing.T) {
	pool := fixtures.DB(t)
	job := pipeline.MustJob("odd.job", func(h hostile) string { return h.Note },
		func(ctx context.Context, run *pipeline.Run[hostile]) (int, error) { return 0, nil },
		pipeline.JobOptions[hostile, int]{Queue: oddName})
	task := pipeline.MustTask(oddName, "0 3 * * *", "UTC", []pipeline.TaskEntry{pipeline.Entry(job, func(pipeline.Occurrence) hostile { return hostile{Note: "n"} })})
	sched, err := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: []*pipeline.Task{task}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := sched.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sched.Stop(context.Background()) })
	for deadline := time.Now().Add(30 * time.Second); !sched.Leading(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the scheduler never led, so the task is not armed")
		}
	}
	admin := pipeline.NewAdmin(pool)
	srv := consoleOn(t, admin, console.Options{AllowActions: true, Manifests: []pipeline.Manifest{job.Describe()}, Tasks: []*pipeline.Task{task}})
	browser := newBrowser()

	_, _, page := get(t, browser, srv.URL+"/")
	page = press(t, browser, srv.URL, page, "pause")
	if paused, _ := admin.PausedQueues(t.Context()); !slices.Equal(paused, []string{oddName}) {
		t.Fatalf("paused queues %q", paused)
	}
	if !strings.Contains(page, "Paused.") || !slices.ContainsFunc(attrs(page), func(a string) bool {
		u, err := url.Parse(a)
		return err == nil && u.Path == "/jobs" && u.Query().Get("queue") == oddName
	}) {
		t.Fatal("the queues page after the pause does not link the queue's jobs by its name")
	}
	press(t, browser, srv.URL, page, "resume")
	if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 0 {
		t.Fatalf("paused queues after resume %q", paused)
	}

	_, _, page = get(t, browser, srv.URL+"/tasks")
	page = press(t, browser, srv.URL, page, "pause")
	if paused, _ := admin.PausedTasks(t.Context()); !slices.Equal(paused, []string{oddName}) {
		t.Fatalf("paused tasks %q", paused)
	}
	press(t, browser, srv.URL, page, "resume")
	if paused, _ := admin.PausedTasks(t.Context()); len(paused) != 0 {
		t.Fatalf("paused tasks after resume %q", paused)
	}
}
