package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// outcome is how a body ended.
type outcome struct {
	result json.RawMessage
	err    error
	rs     *runState
}

// run executes one claimed run: replay, body, then the settle its outcome
// calls for. The body runs in its own goroutine so that a timeout or a drain
// deadline can give up on a body that ignores its context.
func (w *Worker) run(row *claimed) {
	defer w.bodies.Done()
	defer w.release(row)
	job, _ := w.cfg.Registry.Lookup(row.name)
	spec := job.declaration()
	if !w.admit(row, spec) {
		return
	}
	row.began = time.Now()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	ctx, span := w.startJobSpan(ctx, row, spec)
	defer span.End()
	h := &heldRun{row: row, cancel: cancel, lastRenewed: time.Now()}
	w.hold(h)
	done := make(chan outcome, 1)
	var timeout <-chan time.Time // armed before the body starts, so the deadline counts from the start
	if spec.timeout > 0 {
		timeout = w.cfg.Clock.After(spec.timeout)
	}
	w.gos.Go(func() { w.body(ctx, job, row, spec, done) })
	w.await(ctx, cancel, h, spec, done, timeout)
}

func (w *Worker) body(ctx context.Context, job Registrable, row *claimed, spec *jobSpec, done chan<- outcome) {
	defer func() {
		if p := recover(); p != nil {
			done <- outcome{err: panicked(spec.name, p)}
		}
	}()
	journal := newReplay()
	if row.hasSteps {
		var err error
		if journal, err = loadOpenReplay(ctx, w.pool, row.id); err != nil {
			done <- outcome{err: errcode.Postgres(ctx, err, "job "+spec.name+": journal read")}
			return
		}
	}
	rs := &runState{w: w, row: row, spec: spec, journal: journal}
	if spec.compensates {
		_, marked := rs.unwinding()
		rs.replayOnly = marked || row.attempt > spec.retry.Attempts
	}
	if w.cfg.WatchWrites {
		ctx = WatchWrites(ctx, w.nPlusOneLogger(row))
	}
	res, err := job.execute(withRun(ctx, rs), row)
	rs.releaseHolds()
	done <- outcome{result: res, err: err, rs: rs}
}

// await waits for the body, its timeout or the drain deadline.
func (w *Worker) await(ctx context.Context, cancel context.CancelCauseFunc, h *heldRun, spec *jobSpec, done chan outcome, timeout <-chan time.Time) {
	row := h.row
	select {
	case o := <-done:
		h.settling.Store(true)
		w.settle(ctx, h, spec, o)
	case <-timeout:
		h.settling.Store(true)
		w.timedOut(cancel, row, spec, done)
	case <-w.abandon:
		w.log.warn("jobs.drain.abandoned", "job", row.name, "id", row.id.String())
		go func() { <-done }()
	}
}

// timedOut cancels the body with X_JOB_TIMEOUT, gives it TimeoutGrace to
// unwind, then fails the attempt. A body still running is abandoned: its
// steps refuse to write, and how it ended is logged.
func (w *Worker) timedOut(cancel context.CancelCauseFunc, row *claimed, spec *jobSpec, done chan outcome) {
	cause := errcode.New(errcode.JobTimeout, "job %s: the attempt passed its %s timeout", spec.name, spec.timeout).
		WithFix("raise the job's Timeout, or make the body honour its context sooner")
	cancel(cause)
	grace := time.NewTimer(w.cfg.TimeoutGrace)
	defer grace.Stop()
	select {
	case <-done:
		w.failAttempt(row, spec, cause)
	case <-grace.C:
		w.failAttempt(row, spec, cause)
		go func() {
			o := <-done
			w.log.warn("jobs.timeout.abandoned", "job", row.name, "id", row.id.String(), "ended", endedAs(o))
		}()
	}
}

func endedAs(o outcome) string {
	if o.err == nil {
		return "returned"
	}
	if c := errcode.CodeOf(o.err); c != "" {
		return "error " + string(c)
	}
	return "error"
}
