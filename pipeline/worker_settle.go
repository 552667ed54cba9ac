package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// settle records how the body ended, reading the verdict off the context's
// cause first: a drained body is interrupted whatever it returned.
func (w *Worker) settle(ctx context.Context, h *heldRun, spec *jobSpec, o outcome) {
	row := h.row
	cause := context.Cause(ctx)
	if o.rs != nil {
		_ = o.rs.flushProgress(context.WithoutCancel(ctx))
	}
	failure := bodyFailure(spec, o.err)
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
	case errors.Is(cause, errcode.JobCancelled):
		w.cancelled(row)
	case errcode.CodeOf(failure) == errcode.RateLimited:
		w.deferRateLimited(row, spec, failure)
	case errors.Is(cause, errcode.JobLeaseLost) && h.lostInOutage.Load():
		w.handBack(row, spec, cause)
	case errors.Is(cause, errcode.JobLeaseLost):
		w.unowned(row, "lease lost")
	case errcode.Unavailable(failure):
		w.handBack(row, spec, failure)
	case o.rs != nil && spec.compensates && (o.rs.replayOnly || decideFailure(row, spec, failure).state != "ready"):
		w.unwind(ctx, row, spec, o.rs, failure)
	default:
		w.failAttempt(row, spec, failure)
	}
}

// bodyFailure codes a database failure a body answered raw (a statement of
// its own, through pgx), so that it is classified like the core's own and
// stored without the server's message, which can quote a value.
func bodyFailure(spec *jobSpec, err error) error {
	if err == nil || !errcode.IsPostgres(err) {
		return err
	}
	return errcode.Postgres(context.Background(), err, "job "+spec.name+": a statement of the body")
}

func (w *Worker) completeRun(row *claimed, spec *jobSpec, result json.RawMessage) {
	if result == nil {
		result = json.RawMessage("null")
	}
	ok := w.persist(row, "completed", func(ctx context.Context) (bool, error) {
		return w.store.complete(ctx, row, result, spec.limit > 0)
	})
	if ok {
		w.stats.Completed.Add(1)
		w.outcome(row.queue, "completed")
		w.log.settled(row, "completed")
		w.notifySettled(OutcomeCompleted, row, result, nil)
	}
}

func (w *Worker) suspendRun(row *claimed, sp *suspension) {
	ok := w.persist(row, "suspended", func(ctx context.Context) (bool, error) {
		return w.store.suspend(ctx, row, sp)
	})
	if ok {
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

// handBack returns a run cut short because PostgreSQL went away, as a drain
// does: its completed steps kept, its attempt uncounted, ready again after
// the job's first retry delay.
func (w *Worker) handBack(row *claimed, spec *jobSpec, failure error) {
	if w.deferRun(row, spec.retry.DelayFor(1, jitterRoll()), evInterrupted, errorJSON(failure)) {
		w.stats.Interrupted.Add(1)
		w.outcome(row.queue, "interrupted")
		w.log.info("jobs.run.handed_back", "job", row.name, "id", row.id.String(), "code", string(errcode.CodeOf(failure)))
	}
}

// cancelled accounts a run an operator cancelled while it ran: the cancel
// already settled the row, so there is nothing to write.
func (w *Worker) cancelled(row *claimed) {
	w.stats.Cancelled.Add(1)
	w.outcome(row.queue, "cancelled")
	w.log.settled(row, "cancelled")
}

// deferRun hands a run back uncounted; it answers whether the fence held.
func (w *Worker) deferRun(row *claimed, delay time.Duration, kind string, data json.RawMessage) bool {
	return w.persist(row, kind, func(ctx context.Context) (bool, error) {
		return w.store.deferRun(ctx, row, delay, kind, data)
	})
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
	ok := w.persist(row, d.kind, func(ctx context.Context) (bool, error) {
		return w.store.fail(ctx, row, d.state, d.delay, d.record, d.kind)
	})
	if ok {
		w.stats.Retried.Add(1)
		w.outcome(row.queue, "retried")
		w.log.info("jobs.attempt.failed", "job", row.name, "id", row.id.String(), "attempt", row.attempt,
			"code", string(errcode.CodeOf(failure)), "retry_in", d.delay.Round(time.Millisecond).String())
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
	ok := w.persist(row, state, func(ctx context.Context) (bool, error) {
		return w.store.fail(ctx, row, state, 0, record, state)
	})
	switch {
	case !ok:
	case state == "dead":
		w.stats.DeadLettered.Add(1)
		w.outcome(row.queue, "dead_lettered")
		w.log.warn("jobs.run.dead", "job", row.name, "id", row.id.String(), "attempt", row.attempt, "code", recordCode(record))
		w.log.settled(row, state)
		w.notifySettled(OutcomeDeadLettered, row, nil, record)
	default:
		w.stats.Failed.Add(1)
		w.outcome(row.queue, "failed")
		w.log.settled(row, state)
		w.notifySettled(OutcomeDropped, row, nil, record)
	}
}

func recordCode(record json.RawMessage) string {
	var rec ErrorRecord
	_ = json.Unmarshal(record, &rec)
	return rec.Code
}
