package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	ctx, span := w.startJobSpan(ctx, row)
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
			done <- outcome{err: errcode.New(errcode.Invariant, "job %s: the body panicked: %s", spec.name, panicType(p)).
				WithFix("fix the panic; the attempt is retried")}
		}
	}()
	journal := newReplay()
	if row.hasSteps {
		var err error
		if journal, err = loadReplay(ctx, w.pool, row.id); err != nil {
			done <- outcome{err: errcode.Wrap(err, errcode.Invariant, "job %s: journal read: %s", spec.name, pgErrorCode(err))}
			return
		}
	}
	rs := &runState{w: w, row: row, spec: spec, journal: journal, names: map[string]bool{}}
	if spec.compensates {
		_, marked := rs.unwinding()
		rs.replayOnly = marked || row.attempt > spec.retry.Attempts
	}
	res, err := job.execute(withRun(ctx, rs), row)
	done <- outcome{result: res, err: err, rs: rs}
}

func panicType(p any) string {
	if err, ok := p.(error); ok {
		if c := errcode.CodeOf(err); c != "" {
			return string(c)
		}
	}
	return fmt.Sprintf("%T", p)
}

// await waits for the body, its timeout or the drain deadline.
func (w *Worker) await(ctx context.Context, cancel context.CancelCauseFunc, h *heldRun, spec *jobSpec, done chan outcome, timeout <-chan time.Time) {
	row := h.row
	select {
	case o := <-done:
		h.settling.Store(true)
		w.settle(ctx, row, spec, o)
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

// settle records how the body ended, reading the verdict off the context's
// cause first: a drained body is interrupted whatever it returned.
func (w *Worker) settle(ctx context.Context, row *claimed, spec *jobSpec, o outcome) {
	cause := context.Cause(ctx)
	if o.rs != nil {
		_ = o.rs.flushProgress(context.WithoutCancel(ctx))
	}
	var sp *suspension
	switch {
	case errors.Is(o.err, errCrash):
		w.abandonKilled(row)
	case o.err == nil:
		w.completeRun(row, spec, o.result)
	case errors.As(o.err, &sp) && cause == nil:
		w.suspendRun(row, sp)
	case errors.Is(cause, errcode.Draining):
		w.interruptRun(row)
	case errcode.CodeOf(o.err) == errcode.RateLimited:
		w.deferRateLimited(row, spec, o.err)
	case errors.Is(cause, errcode.JobLeaseLost):
		w.stats.Unowned.Add(1)
		w.log.warn("jobs.settle.unowned", "job", row.name, "id", row.id.String(), "reason", "lease lost")
	case o.rs != nil && spec.compensates && (o.rs.replayOnly || decideFailure(row, spec, o.err).state != "ready"):
		w.unwind(ctx, row, spec, o.rs, o.err)
	default:
		w.failAttempt(row, spec, o.err)
	}
}

func (w *Worker) completeRun(row *claimed, spec *jobSpec, result json.RawMessage) {
	if result == nil {
		result = json.RawMessage("null")
	}
	ok, err := w.store.complete(context.Background(), row, result, spec.limit > 0)
	w.afterSettle(row, "completed", ok, err)
	if ok && err == nil {
		w.stats.Completed.Add(1)
		w.outcome(row.queue, "completed")
		w.notifySettled(OutcomeCompleted, row, result, nil)
	}
}

func (w *Worker) suspendRun(row *claimed, sp *suspension) {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	ok, err := w.store.suspend(ctx, row, sp)
	w.afterSettle(row, "suspended", ok, err)
	if ok && err == nil {
		w.stats.Suspended.Add(1)
		w.outcome(row.queue, "suspended")
	}
}

func (w *Worker) interruptRun(row *claimed) {
	if w.deferRun(row, 0, evInterrupted, nil) {
		w.stats.Interrupted.Add(1)
		w.outcome(row.queue, "interrupted")
	}
}

// deferRun hands a run back uncounted; it answers whether the fence held.
func (w *Worker) deferRun(row *claimed, delay time.Duration, kind string, data json.RawMessage) bool {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	ok, err := w.store.deferRun(ctx, row, delay, kind, data)
	w.afterSettle(row, kind, ok, err)
	return ok && err == nil
}

// failAttempt settles a failed attempt: a retry after the backoff (or the
// responder's retry-after), or dead/failed for good when attempts are spent
// or the code is terminal.
func (w *Worker) failAttempt(row *claimed, spec *jobSpec, failure error) {
	d := decideFailure(row, spec, failure)
	if d.state != "ready" {
		w.bury(row, spec, d.record)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	ok, err := w.store.fail(ctx, row, d.state, d.delay, d.record, d.kind)
	w.afterSettle(row, d.kind, ok, err)
	if ok && err == nil {
		w.stats.Retried.Add(1)
		w.outcome(row.queue, "retried")
	}
}

func (w *Worker) afterSettle(row *claimed, what string, ok bool, err error) {
	switch {
	case err != nil:
		w.log.error("jobs.settle.failed", "job", row.name, "id", row.id.String(), "settle", what, "error", pgErrorCode(err))
	case !ok:
		w.stats.Unowned.Add(1)
		w.log.warn("jobs.settle.unowned", "job", row.name, "id", row.id.String(), "settle", what)
	}
}

type failureDecision struct {
	state  string
	kind   string
	delay  time.Duration
	record json.RawMessage
}

func decideFailure(row *claimed, spec *jobSpec, failure error) failureDecision {
	rec := recordOf(failure)
	rec.Attempt = row.attempt
	class := errcode.Classify(failure)
	buried := "dead"
	if spec.retry.NoDeadLetter {
		buried = "failed"
	}
	d := failureDecision{state: "ready", kind: evAttemptFailed}
	switch {
	case class == errcode.Terminal:
		rec.Terminal = true
		rec.Message += " — not retried: this code is classified terminal"
		d.state, d.kind = buried, buried
	case row.attempt >= spec.retry.Attempts:
		d.state, d.kind = buried, buried
	case class == errcode.RetryAfter:
		if s, ok := errcode.RetryAfterSeconds(failure); ok {
			d.delay = spec.retry.clampRetryAfter(time.Duration(s) * time.Second)
		} else {
			d.delay = spec.retry.DelayFor(row.attempt, jitterRoll())
		}
	default:
		d.delay = spec.retry.DelayFor(row.attempt, jitterRoll())
	}
	d.record, _ = json.Marshal(rec)
	return d
}

// deferRateLimited defers a run its body reported over a rate limit to the
// limit's retry-after (clamped by MaxDelay), its attempt uncounted.
func (w *Worker) deferRateLimited(row *claimed, spec *jobSpec, failure error) {
	delay := spec.retry.Delay
	if s, ok := errcode.RetryAfterSeconds(failure); ok {
		delay = spec.retry.clampRetryAfter(time.Duration(s) * time.Second)
	}
	if w.deferRun(row, delay, evDeferredRate, errorJSON(failure)) {
		w.stats.Deferred.Add(1)
		w.outcome(row.queue, "deferred")
	}
}

// bury settles a run dead (or failed for a job without dead letter) with the
// given error record.
func (w *Worker) bury(row *claimed, spec *jobSpec, record json.RawMessage) {
	state := "dead"
	if spec.retry.NoDeadLetter {
		state = "failed"
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	ok, err := w.store.fail(ctx, row, state, 0, record, state)
	w.afterSettle(row, state, ok, err)
	switch {
	case !ok || err != nil:
	case state == "dead":
		w.stats.DeadLettered.Add(1)
		w.outcome(row.queue, "dead_lettered")
		w.notifySettled(OutcomeDeadLettered, row, nil, record)
	default:
		w.stats.Failed.Add(1)
		w.outcome(row.queue, "failed")
		w.notifySettled(OutcomeDropped, row, nil, record)
	}
}
