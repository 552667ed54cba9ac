package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// How a run ended, as OnSettled hears it.
const (
	OutcomeCompleted    = "completed"
	OutcomeDeadLettered = "dead-lettered"
	OutcomeDropped      = "dropped" // failed for good on a job with NoDeadLetter
	OutcomeRefused      = "refused" // WhenBusy Fail over a busy key
)

// OnSettledTimeout bounds one OnSettled hook's three tries.
const OnSettledTimeout = 30 * time.Second

// Settled is what an OnSettled hook is told: the outcome, the input (nil
// when the stored payload no longer decodes), the result of a completed run,
// and the error of one that failed.
type Settled[In, Out any] struct {
	Outcome string
	ID      string
	Input   *In
	Result  Out
	Error   *ErrorRecord
}

// OnSettled sets a hook called once a run's ending landed: completed,
// dead-lettered, dropped or refused — never for a retry, a suspension, a
// drain, or a run cancelled or removed by a caller. At most once per ending
// (a worker killed between the settle and the hook never runs it); three
// tries inside OnSettledTimeout, then X_JOB_ON_SETTLED_FAILED is logged and
// the row is untouched. What must be recorded for certain belongs in a step.
// Call it at declaration, before a worker starts.
func (j *Job[In, Out]) OnSettled(hook func(ctx context.Context, s Settled[In, Out]) error) *Job[In, Out] {
	j.onSettled = hook
	return j
}

// settled runs the hook for one ending; it answers the hook's final error.
func (j *Job[In, Out]) settled(outcome string, row *claimed, result, record json.RawMessage) error {
	if j.onSettled == nil {
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
	ctx, cancel := context.WithTimeoutCause(context.Background(), OnSettledTimeout,
		errcode.New(errcode.JobTimeout, "job %s: the OnSettled hook passed its timeout", j.spec.name))
	defer cancel()
	var err error
	for range 3 {
		if err = j.onSettled(ctx, s); err == nil || ctx.Err() != nil {
			break
		}
	}
	return err
}

// notifySettled runs a job's OnSettled hook and logs a hook that kept failing.
func (w *Worker) notifySettled(outcome string, row *claimed, result, record json.RawMessage) {
	job, ok := w.cfg.Registry.Lookup(row.name)
	if !ok {
		return
	}
	if err := job.settled(outcome, row, result, record); err != nil {
		w.log.error("jobs.on_settled.failed", "job", row.name, "id", row.id.String(), "code", string(errcode.JobOnSettledFailed))
	}
}
