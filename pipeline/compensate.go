package pipeline

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/pipekit/pipe/errcode"
)

// compensator undoes one completed step.
type compensator struct {
	step   string
	output json.RawMessage
	undo   func(ctx context.Context, output json.RawMessage) error
}

// StepWithCompensation is [Step] with undo, the step's compensator, bound
// to the step's result type T: when the run fails for good — attempts spent
// or a terminal code, never on a retry, a cancel, a drain or a suspension —
// the compensators of the completed steps run last-in first-out, each as a
// step "compensate:<name>", after a durable "unwinding" marker. undo
// receives the step's stored output, as [Step] answers it. The job must
// declare Compensates, and undo must not be nil, else the step is
// X_JOB_DECLARATION_INVALID. opts are Step's ([Once]).
//
//	charge, err := pipeline.StepWithCompensation(ctx, "charge",
//		func(ctx context.Context) (Charge, error) { return pay.Charge(ctx, order) },
//		func(ctx context.Context, c Charge) error { return pay.Refund(ctx, c.ID) })
func StepWithCompensation[T any](ctx context.Context, name string, fn func(ctx context.Context) (T, error),
	undo func(ctx context.Context, output T) error, opts ...StepOption) (T, error) {
	if undo == nil {
		var zero T
		return zero, errcode.New(errcode.JobDeclarationInvalid, "step %s: the compensator is nil", name).
			WithFix("pass the function that undoes the step, or call Step")
	}
	cfg := stepConfigOf(opts)
	cfg.compensate = func(ctx context.Context, raw json.RawMessage) error {
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return errcode.Wrap(err, errcode.StepOutputUnserializable, "step %s: the stored output does not decode into the step's result type", name).
				WithFix("keep a step's result type decodable from what earlier deploys stored")
		}
		return undo(ctx, v)
	}
	return runStep(ctx, name, fn, cfg)
}

// errReplayOnly stops a body that replays only to re-register compensators,
// at its first step that never completed.
var errReplayOnly = errors.New("pipeline: the run is unwinding; the body replays only to register compensators")

// register keeps a completed step's compensator, in step order.
func (rs *runState) register(name string, cfg stepConfig, raw json.RawMessage) {
	if cfg.compensate == nil {
		return
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.comps = append(rs.comps, compensator{step: name, output: raw, undo: cfg.compensate})
}

// forwardAllowed refuses a compensator on a job that did not declare
// Compensates, and stops a replay-only body at its first new step.
func (rs *runState) forwardAllowed(name string, cfg stepConfig) error {
	if cfg.compensate != nil && !rs.spec.compensates {
		return errcode.New(errcode.JobDeclarationInvalid, "job %s: step %s has a compensator but the job does not declare Compensates", rs.spec.name, name).
			WithFix("set JobOptions.Compensates")
	}
	if !rs.replayOnly {
		return nil
	}
	if cfg.compensate != nil && rs.startedOnly(name) {
		rs.unknownComp = name
	}
	return errReplayOnly
}

// unwinding answers whether the run's journal holds the unwinding marker,
// and the failure it recorded.
func (rs *runState) unwinding() (json.RawMessage, bool) {
	raw, ok := rs.stored(unwindingStep)
	return raw, ok
}

const unwindingStep = "unwinding"
