package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// Outcome is how a run ended, as an OnSettled hook hears it.
type Outcome string

// The outcomes an OnSettled hook hears.
const (
	OutcomeCompleted    Outcome = "completed"
	OutcomeDeadLettered Outcome = "dead-lettered"
	OutcomeDropped      Outcome = "dropped" // failed for good on a job with NoDeadLetter
	OutcomeRefused      Outcome = "refused" // WhenBusy Fail over a busy key
)

// OnSettledTimeout is the default of JobOptions.OnSettledTimeout: the bound
// on one OnSettled hook's three tries.
const OnSettledTimeout = 30 * time.Second

// Settled is what an OnSettled hook is told: the outcome, the input (nil
// when the stored payload no longer decodes), the result of a completed run,
// and the error of one that failed.
type Settled[In, Out any] struct {
	Outcome Outcome
	ID      string
	Input   *In
	Result  Out
	Error   *ErrorRecord
}

// settled runs the declared OnSettled hook for one ending; it answers the
// hook's final error.
func (j *Job[In, Out]) settled(outcome Outcome, row *claimed, result, record json.RawMessage) error {
	hook := j.opts.OnSettled
	if hook == nil {
		return nil
	}
	s := Settled[In, Out]{Outcome: outcome, ID: row.id.String()}
	if in, err := j.decode(row.input); err == nil {
		s.Input = &in
	}
	if result != nil {
		_ = json.Unmarshal(result, &s.Result)
	}
	if record != nil {
		s.Error = &ErrorRecord{}
		_ = json.Unmarshal(record, s.Error)
	}
	timeout := j.opts.OnSettledTimeout
	if timeout == 0 {
		timeout = OnSettledTimeout
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), timeout,
		errcode.New(errcode.JobTimeout, "job %s: the OnSettled hook passed its timeout", j.spec.name))
	defer cancel()
	var err error
	for range 3 {
		if err = hook(ctx, s); err == nil || ctx.Err() != nil {
			break
		}
	}
	return err
}

// notifySettled runs a job's OnSettled hook and logs a hook that kept failing.
func (w *Worker) notifySettled(outcome Outcome, row *claimed, result, record json.RawMessage) {
	job, ok := w.cfg.Registry.Lookup(row.name)
	if !ok {
		return
	}
	if err := job.settled(outcome, row, result, record); err != nil {
		w.log.error("jobs.on_settled.failed", "job", row.name, "id", row.id.String(), "code", string(errcode.JobOnSettledFailed))
	}
}
