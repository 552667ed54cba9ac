package pipecli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// waitEvent is one change a --wait command reports while it waits: a line
// on stderr, or with --json a JSON line there.
type waitEvent struct {
	// Event is attempt.failed, deferred.busy, deferred.rate, lease.lapsed,
	// queue.paused, unclaimed or deduped.
	Event       string     `json:"event"`
	Run         string     `json:"run"`
	Queue       string     `json:"queue,omitempty"`
	Attempt     int        `json:"attempt,omitempty"`
	MaxAttempts int        `json:"maxAttempts,omitempty"`
	Code        string     `json:"code,omitempty"`
	Message     string     `json:"message"`
	NextTryAt   *time.Time `json:"nextTryAt,omitempty"`
	At          time.Time  `json:"at"`
}

// unclaimedAfter is how long a due run waits unclaimed before the command
// says why.
const unclaimedAfter = 3 * time.Second

// waitReporter follows a run a --wait command works in this process and
// reports what a user would act on: a failed attempt and when the next
// starts, a deferral and why, a run this command's worker has not claimed.
type waitReporter struct {
	w      io.Writer
	asJSON bool
	bar    *progressBar
	paused func(ctx context.Context) ([]string, error)
	now    func() time.Time
	slots  int // the runs this command's worker runs at once

	seq      int64     // the last journal event reported
	dueSince time.Time // when the run was first seen due and unclaimed
	said     bool      // the unclaimed run was reported
}

func newWaitReporter(a *app, adm *pipeline.Admin, bar *progressBar, slots int) *waitReporter {
	return &waitReporter{w: a.stderr, asJSON: a.json, bar: bar, paused: adm.PausedQueues, now: time.Now, slots: slots}
}

func slotsSaid(n int) string {
	if n <= 1 {
		return "one run at a time"
	}
	return fmt.Sprintf("%d runs at a time", n)
}

// enqueued says, when the enqueue found a run of the same input live, that
// the command waits for that run rather than a new one.
func (r *waitReporter) enqueued(job, queue string, res pipeline.EnqueueResult) {
	if !res.Deduped {
		return
	}
	r.report(waitEvent{Event: "deduped", Run: res.ID, Queue: queue, At: r.now(),
		Message: fmt.Sprintf("a %s run with the same input is already live: this command waits for it, and runs it unless another worker has it", job)})
}

// watch is the callback of workInProcess: the bar, then what changed.
func (r *waitReporter) watch(d *pipeline.RunDetail) {
	for _, e := range d.Journal {
		if e.Seq <= r.seq {
			continue
		}
		if settling(d, e) {
			break // said at the next look, beside the row as the attempt left it
		}
		r.seq = e.Seq
		if ev, ok := r.fromJournal(d, e); ok {
			r.report(ev)
		}
	}
	r.watchUnclaimed(d)
	if r.bar != nil {
		r.bar.watch(d)
	}
}

// settling reports whether e is a failed attempt whose run d was read
// before the attempt settled: Admin.Show reads the row before the journal,
// so the journal can hold the failure while the row still runs it.
func settling(d *pipeline.RunDetail, e pipeline.Event) bool {
	return e.Kind == "attempt.failed" && d.State == pipeline.StateRunning && d.Attempt == e.Attempt
}

// fromJournal answers the event a journal entry reports, if any.
func (r *waitReporter) fromJournal(d *pipeline.RunDetail, e pipeline.Event) (waitEvent, bool) {
	ev := waitEvent{Event: e.Kind, Run: d.ID, Queue: d.Queue, Attempt: e.Attempt, MaxAttempts: d.MaxAttempts, At: e.At}
	var rec pipeline.ErrorRecord
	_ = json.Unmarshal(e.Data, &rec)
	switch e.Kind {
	case "attempt.failed":
		if rec.Message == "" && d.LastError != nil {
			rec = *d.LastError
		}
		ev.Code, ev.Message = rec.Code, rec.Message
		ev.NextTryAt = r.nextTry(d)
	case "deferred.busy":
		ev.Message = "deferred, its attempt uncounted: another run holds its concurrency key"
		if json.Valid(e.Data) && strings.Contains(string(e.Data), "maxInFlightPerTenant") {
			ev.Message = "deferred, its attempt uncounted: its tenant has MaxInFlightPerTenant runs running in the worker"
		}
		ev.NextTryAt = r.nextTry(d)
	case "deferred.rate":
		ev.Code, ev.Message = "X_RATE_LIMITED", "deferred, its attempt uncounted: a rate limit holds it back"
		ev.NextTryAt = r.nextTry(d)
	case "lease.lapsed":
		ev.Message = "the lease lapsed: the worker holding the run stopped renewing it; the run is taken up again"
	default:
		return ev, false
	}
	return ev, true
}

// nextTry answers when the run is next due, while it waits for that.
func (r *waitReporter) nextTry(d *pipeline.RunDetail) *time.Time {
	if d.NextRetryAt != nil {
		return d.NextRetryAt
	}
	if d.State == pipeline.StateReady || d.State == pipeline.StateDelayed {
		at := d.RunAt
		return &at
	}
	return nil
}

// watchUnclaimed says, once a wait, why a due run is not claimed: its
// queue is paused, or this command's worker has not reached it.
func (r *waitReporter) watchUnclaimed(d *pipeline.RunDetail) {
	now := r.now()
	due := (d.State == pipeline.StateReady || d.State == pipeline.StateDelayed) && !d.RunAt.After(now)
	if !due {
		r.dueSince, r.said = time.Time{}, false
		return
	}
	if r.dueSince.IsZero() {
		r.dueSince = now
	}
	if r.said || now.Sub(r.dueSince) < unclaimedAfter {
		return
	}
	r.said = true
	ev := waitEvent{Event: "unclaimed", Run: d.ID, Queue: d.Queue, Attempt: d.Attempt, MaxAttempts: d.MaxAttempts, At: now,
		Message: fmt.Sprintf("not started after %s: this command runs the run itself, %s, and runs the earlier runs of its job queued on %s first (see `pipe jobs list --queue %s`)", unclaimedAfter, slotsSaid(r.slots), d.Queue, d.Queue)}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if paused, err := r.paused(ctx); err == nil && slices.Contains(paused, d.Queue) {
		ev.Event = "queue.paused"
		ev.Message = fmt.Sprintf("queue %s is paused: this command runs the run itself once it is resumed (`pipe queues resume %s`)", d.Queue, d.Queue)
	}
	r.report(ev)
}

// report writes one event: a JSON line with --json, else a line above the
// progress bar.
func (r *waitReporter) report(ev waitEvent) {
	if r.asJSON {
		data, _ := json.Marshal(ev)
		fmt.Fprintf(r.w, "%s\n", data)
		return
	}
	if r.bar != nil {
		r.bar.clear()
	}
	fmt.Fprintln(r.w, r.line(ev))
}

// line is an event as the user reads it.
func (r *waitReporter) line(ev waitEvent) string {
	s := "run " + ev.Run + ": "
	switch ev.Event {
	case "attempt.failed":
		s += fmt.Sprintf("attempt %d of %d failed: %s: %s", ev.Attempt, ev.MaxAttempts, ev.Code, ev.Message)
	default:
		s += ev.Message
	}
	if ev.NextTryAt != nil {
		in := max(ev.NextTryAt.Sub(r.now()), 0).Round(time.Second)
		s += fmt.Sprintf("; next try at %s (in %s)", ev.NextTryAt.Local().Format("15:04:05"), in)
	}
	if ev.Event == "attempt.failed" || ev.Event == "deferred.busy" || ev.Event == "deferred.rate" {
		s += "; stop it with `pipe jobs cancel " + ev.Run + "`"
	}
	return s
}
