package pipeline

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/pipekit/pipe/errcode"
)

// unwind runs a failed-for-good run's compensators last-in first-out, each
// journalled as step "compensate:<name>" after the durable "unwinding"
// marker, then buries the run with its original failure. A compensator that
// fails sends the run back while the unwind has attempts (the row carries
// UnwindMargin extra), then buries it with X_JOB_COMPENSATION_FAILED.
func (w *Worker) unwind(ctx context.Context, row *claimed, spec *jobSpec, rs *runState, failure error) {
	original, err := w.markUnwinding(ctx, row, rs, failure)
	if err != nil {
		w.unwindStopped(ctx, row, spec, err)
		return
	}
	if rs.unknownComp != "" {
		w.compensationFailed(row, spec, rs.unknownComp, true)
		return
	}
	for i := len(rs.comps) - 1; i >= 0; i-- {
		if err := w.compensateOne(ctx, rs, rs.comps[i]); err != nil {
			if errors.Is(err, errCrash) {
				w.abandonKilled(row)
				return
			}
			if ctx.Err() != nil {
				w.unwindStopped(ctx, row, spec, err)
				return
			}
			w.compensationFailed(row, spec, rs.comps[i].step, false)
			return
		}
	}
	w.bury(row, spec, original)
}

// markUnwinding writes the unwinding marker with the original failure, or
// answers the one an earlier attempt wrote.
func (w *Worker) markUnwinding(ctx context.Context, row *claimed, rs *runState, failure error) (json.RawMessage, error) {
	if raw, ok := rs.unwinding(); ok {
		return raw, nil
	}
	if errors.Is(failure, errReplayOnly) {
		failure = errcode.New(errcode.JobLeaseLost, "job %s: the final attempt's lease lapsed", row.name).
			WithFix("keep the worker alive through the body; the run was unwound")
	}
	rec := recordOf(failure)
	rec.Attempt = row.attempt
	raw, _ := json.Marshal(rec)
	if err := rs.appendStep(ctx, evStepCompleted, unwindingStep, raw); err != nil {
		return nil, err
	}
	rs.markCompleted(unwindingStep, raw)
	return raw, nil
}

func (w *Worker) compensateOne(ctx context.Context, rs *runState, c compensator) error {
	name := "compensate:" + c.step
	if _, done := rs.stored(name); done {
		return nil
	}
	stepCtx, cancel := rs.stepContext(ctx)
	err := c.undo(stepCtx, c.output)
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			_ = rs.appendStep(ctx, evStepFailed, name, errorJSON(err))
		}
		return err
	}
	if err := rs.appendStep(ctx, evStepCompleted, name, json.RawMessage("null")); err != nil {
		return err
	}
	rs.markCompleted(name, json.RawMessage("null"))
	return rs.boundary(name)
}

// unwindStopped settles an unwind cut short by a drain (interrupted), a
// lost database (handed back uncounted) or a lost claim (nothing to settle).
func (w *Worker) unwindStopped(ctx context.Context, row *claimed, spec *jobSpec, err error) {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errcode.Draining):
		w.interruptRun(row)
	case errors.Is(cause, errcode.JobCancelled):
		w.cancelled(row)
	case cause == nil && errcode.Unavailable(err):
		w.handBack(row, spec, err)
	default:
		w.unowned(row, "unwinding: "+string(errcode.CodeOf(err)))
	}
}

func (w *Worker) compensationFailed(row *claimed, spec *jobSpec, step string, terminal bool) {
	rec := recordOf(errcode.New(errcode.JobCompensationFailed, "job %s: the compensator of step %s failed", spec.name, step).
		WithFix("fix the compensator, then `pipe jobs retry ID`: the retry continues the unwind"))
	rec.Attempt = row.attempt
	raw, _ := json.Marshal(rec)
	if !terminal && row.attempt < row.maxAttempt {
		delay := spec.retry.DelayFor(row.attempt, jitterRoll())
		ok := w.persist(row, evAttemptFailed, func(ctx context.Context) (bool, error) {
			return w.store.fail(ctx, row, "ready", delay, raw, evAttemptFailed)
		})
		if ok {
			w.stats.Retried.Add(1)
			w.outcome(row.queue, "retried")
		}
		return
	}
	w.bury(row, spec, raw)
}
