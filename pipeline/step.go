package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
)

// StepOption adjusts one step.
type StepOption func(*stepConfig)

type stepConfig struct {
	once       bool
	compensate func(ctx context.Context, output json.RawMessage) error
}

// Once makes a step at-most-once: its start is persisted before fn runs, and
// a replay that finds a start without an outcome stops with the terminal
// X_STEP_OUTCOME_UNKNOWN instead of running fn again. An operator resolves it
// with `pipe jobs resolve-step ID STEP --ran --output JSON | --not-ran`.
func Once() StepOption { return func(c *stepConfig) { c.once = true } }

// Step runs fn once ever per run and answers the stored JSON form of its
// result — on the first run too, so a body sees the same value either way.
// A replay answers from the journal without calling fn. The step's name is
// its replay key: unique in one run (else X_STEP_DUPLICATE), stable across
// deploys. fn's context carries the step ceiling and the run's cancellation.
func Step[T any](ctx context.Context, name string, fn func(ctx context.Context) (T, error), opts ...StepOption) (T, error) {
	return runStep(ctx, name, fn, stepConfigOf(opts))
}

// runStep is Step with its options applied.
func runStep[T any](ctx context.Context, name string, fn func(ctx context.Context) (T, error), cfg stepConfig) (T, error) {
	var zero T
	rs, err := beginStep(ctx, name)
	if err != nil {
		return zero, err
	}
	if raw, ok := rs.stored(name); ok {
		rs.register(name, cfg, raw)
		return decodeStep[T](name, raw)
	}
	if err := rs.forwardAllowed(name, cfg); err != nil {
		return zero, err
	}
	if err := rs.guardUnknown(ctx, name, cfg); err != nil {
		return zero, err
	}
	stepCtx, cancel := rs.stepContext(ctx)
	stepCtx, span := rs.startStepSpan(stepCtx, name)
	v, err := fn(stepCtx)
	endSpan(span, err)
	stepErr := context.Cause(stepCtx)
	cancel()
	if err != nil {
		return zero, rs.stepFailed(ctx, name, err, stepErr)
	}
	raw, err := encodeStep(name, v)
	if err != nil {
		return zero, err
	}
	if err := rs.appendStep(ctx, evStepCompleted, name, raw); err != nil {
		return zero, err
	}
	rs.markCompleted(name, raw)
	rs.register(name, cfg, raw)
	if err := rs.boundary(name); err != nil {
		return zero, err
	}
	return decodeStep[T](name, raw)
}

// StepTx runs fn inside a transaction in which fn's effect and the step's
// completion commit together: exactly once for database effects. A replay
// answers the stored result without calling fn.
func StepTx[T any](ctx context.Context, name string, fn func(ctx context.Context, tx pgx.Tx) (T, error)) (T, error) {
	var zero T
	rs, err := beginStep(ctx, name)
	if err != nil {
		return zero, err
	}
	if raw, ok := rs.stored(name); ok {
		return decodeStep[T](name, raw)
	}
	if err := rs.forwardAllowed(name, stepConfig{}); err != nil {
		return zero, err
	}
	stepCtx, cancel := rs.stepContext(ctx)
	defer cancel()
	stepCtx, span := rs.startStepSpan(stepCtx, name)
	defer span.End()
	raw, err := rs.w.store.stepTx(stepCtx, rs.row, name, func(tx pgx.Tx) (json.RawMessage, error) {
		v, err := fn(withinTransaction(stepCtx), tx)
		if err != nil {
			return nil, err
		}
		return encodeStep(name, v)
	})
	if err != nil {
		return zero, rs.stepFailed(ctx, name, err, context.Cause(stepCtx))
	}
	rs.markCompleted(name, raw)
	if err := rs.boundary(name); err != nil {
		return zero, err
	}
	return decodeStep[T](name, raw)
}

func stepConfigOf(opts []StepOption) stepConfig {
	var cfg stepConfig
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

func beginStep(ctx context.Context, name string) (*runState, error) {
	rs := runFrom(ctx)
	if rs == nil {
		return nil, errcode.New(errcode.Invariant, "step %s: called outside a job body", name).
			WithFix("call steps only with the context the worker passed to the body")
	}
	if err := checkStepName(name); err != nil {
		return nil, err
	}
	if !rs.claimName(name) {
		return nil, errcode.New(errcode.StepDuplicate, "job %s: two steps are named %s in one run", rs.spec.name, name).
			WithFix("give each step in a run its own name; step names are the replay key")
	}
	return rs, nil
}

func checkStepName(name string) error {
	if strings.TrimSpace(name) == "" || len(name) > 200 {
		return errcode.New(errcode.JobDeclarationInvalid, "a step name is blank or longer than 200 characters").
			WithFix("name every step with 1 to 200 characters")
	}
	if name == "unwinding" || strings.HasPrefix(name, "compensate:") {
		return errcode.New(errcode.JobDeclarationInvalid, "step %s: the name is the framework's", name).
			WithFix("rename the step: unwinding and compensate:* are reserved")
	}
	return nil
}

// guardUnknown refuses a once-step whose start has no outcome, and persists
// the start of a fresh once-step before it runs.
func (rs *runState) guardUnknown(ctx context.Context, name string, cfg stepConfig) error {
	if rs.startedOnly(name) {
		if cfg.compensate != nil {
			rs.unknownComp = name
		}
		return errcode.New(errcode.StepOutcomeUnknown, "job %s: step %s started and its outcome is unknown", rs.spec.name, name).
			WithFix("resolve it: `pipe jobs resolve-step ID STEP --ran --output JSON` or `--not-ran`, then `pipe jobs retry ID`")
	}
	if !cfg.once {
		return nil
	}
	if err := rs.appendStep(ctx, evStepStarted, name, nil); err != nil {
		return err
	}
	rs.markStarted(name)
	return nil
}

func (rs *runState) stepContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if rs.spec.stepTimeout <= 0 {
		return context.WithCancel(ctx)
	}
	timeout := errcode.New(errcode.StepTimeout, "job %s: a step passed its ceiling", rs.spec.name).
		WithFix("raise StepTimeout or make the step shorter")
	return context.WithTimeoutCause(ctx, rs.spec.stepTimeout, timeout)
}

// stepFailed records a step's failure in the journal (unless the run was
// cancelled: past a cancel, steps write nothing) and answers the error the
// body should return.
func (rs *runState) stepFailed(ctx context.Context, name string, err, stepCause error) error {
	if stepCause != nil && errors.Is(stepCause, errcode.StepTimeout) && context.Cause(ctx) == nil {
		err = errcode.Wrap(err, errcode.StepTimeout, "job %s: step %s passed its ceiling", rs.spec.name, name).
			WithFix("raise StepTimeout or make the step shorter")
	}
	if ctx.Err() != nil {
		return err
	}
	_ = rs.appendStep(ctx, evStepFailed, name, errorJSON(err))
	return err
}

// appendStep writes one step event, fenced on this attempt's claim.
func (rs *runState) appendStep(ctx context.Context, kind, name string, data json.RawMessage) error {
	if cause := context.Cause(ctx); cause != nil {
		return abortedErr(rs.spec.name, name, cause)
	}
	return rs.w.store.appendStep(ctx, rs.row, kind, name, data)
}

func abortedErr(job, step string, cause error) error {
	return errcode.Wrap(cause, errcode.Aborted, "job %s: step %s refused to write: the run was cancelled (%s)", job, step, errcode.CodeOf(cause)).
		WithFix("none: the run is retried or interrupted as its cancellation says")
}

func encodeStep[T any](name string, v T) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, errcode.Wrap(err, errcode.StepOutputUnserializable, "step %s: the result does not encode as JSON", name).
			WithFix("return a JSON-encodable value (no channels, functions, cycles or NaN)")
	}
	return raw, nil
}

func decodeStep[T any](name string, raw json.RawMessage) (T, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, errcode.Wrap(err, errcode.StepOutputUnserializable, "step %s: the stored result does not decode into the step's type", name).
			WithFix("a renamed or retyped step needs a new name")
	}
	return v, nil
}
