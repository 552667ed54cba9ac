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

	"github.com/jackc/pgx/v5/pgxpool"

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

// oddNames are names a path cannot carry as they are: oddName, names a
// browser reads as . or .. however escaped, and one that starts with the
// ~ the console writes before those.
var oddNames = []string{oddName, "..", ".", "~tilde"}

// A queue and a task whose names hold / % ? # and a space, or are dots
// alone, are paused and resumed from the console's own forms, over HTTP.
func TestNamesWithPathCharactersArePausedAndResumedFromTheConsole(t *testing.T) {
	pool := fixtures.DB(t)
	admin := pipeline.NewAdmin(pool)
	var tasks []*pipeline.Task
	for _, name := range oddNames {
		job := pipeline.MustJob("odd.job", func(h hostile) string { return h.Note },
			func(ctx context.Context, run *pipeline.Run[hostile]) (int, error) { return 0, nil },
			pipeline.JobOptions[hostile, int]{Queue: name})
		tasks = append(tasks, pipeline.MustTask(name, "0 3 * * *", "UTC",
			[]pipeline.TaskEntry{pipeline.Entry(job, func(pipeline.Occurrence) hostile { return hostile{Note: "n"} })}))
		srv := consoleOn(t, admin, console.Options{AllowActions: true, Manifests: []pipeline.Manifest{job.Describe()}})
		browser := newBrowser()
		_, _, page := get(t, browser, srv.URL+"/")
		page = press(t, browser, srv.URL, page, "pause")
		if paused, _ := admin.PausedQueues(t.Context()); !slices.Equal(paused, []string{name}) {
			t.Fatalf("paused queues %q, want %q", paused, name)
		}
		if !strings.Contains(page, "Paused.") || !slices.ContainsFunc(attrs(page), func(a string) bool {
			u, err := url.Parse(a)
			return err == nil && u.Path == "/jobs" && u.Query().Get("queue") == name
		}) {
			t.Fatalf("the queues page after pausing %q does not link the queue's jobs by its name", name)
		}
		press(t, browser, srv.URL, page, "resume")
		if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 0 {
			t.Fatalf("paused queues after resume %q", paused)
		}
	}
	armed(t, pool, tasks)
	for _, task := range tasks {
		srv := consoleOn(t, admin, console.Options{AllowActions: true, Tasks: []*pipeline.Task{task}})
		browser := newBrowser()
		_, _, page := get(t, browser, srv.URL+"/tasks")
		page = press(t, browser, srv.URL, page, "pause")
		if paused, _ := admin.PausedTasks(t.Context()); !slices.Equal(paused, []string{task.Name()}) {
			t.Fatalf("paused tasks %q, want %q", paused, task.Name())
		}
		press(t, browser, srv.URL, page, "resume")
		if paused, _ := admin.PausedTasks(t.Context()); len(paused) != 0 {
			t.Fatalf("paused tasks after resume %q", paused)
		}
	}
}

// armed starts a scheduler over tasks until the test ends and waits until
// it leads, so that every task is armed (and may be paused).
func armed(t *testing.T, pool *pgxpool.Pool, tasks []*pipeline.Task) {
	t.Helper()
	sched, err := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: tasks, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := sched.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sched.Stop(context.Background()) })
	for deadline := time.Now().Add(30 * time.Second); !sched.Leading(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the scheduler never led, so the tasks are not armed")
		}
	}
}
