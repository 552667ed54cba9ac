package pipeline

import (
	"encoding/json"

	"github.com/pipekit/pipe/errcode"
)

// buried accounts the runs a claim pass buried because their final
// attempt's lease lapsed (the worker holding them died), and tells their
// jobs' OnSettled hooks, off the fetch loop: a hook may take its time.
func (w *Worker) buried(rows []*claimed) {
	for _, b := range rows {
		w.log.warn("jobs.claim.exhausted", "job", b.name, "id", b.id.String(), "attempt", b.attempt)
		outcome := OutcomeDeadLettered
		if w.buriesFailed(b.name) {
			outcome = OutcomeDropped
			w.stats.Failed.Add(1)
			w.outcome(b.queue, "failed")
		} else {
			w.stats.DeadLettered.Add(1)
			w.outcome(b.queue, "dead_lettered")
		}
		w.bodies.Add(1)
		go func() {
			defer w.bodies.Done()
			w.notifySettled(outcome, b, nil, lapsedRecord(b.attempt))
		}()
	}
}

// buriesFailed reports a job declared without dead letter: the claim buries
// its lapsed final attempt "failed".
func (w *Worker) buriesFailed(name string) bool {
	for _, n := range w.noDead {
		if n == name {
			return true
		}
	}
	return false
}

// lapsedRecord is the error the claim stores on a run it buried (claim.sql).
func lapsedRecord(attempt int) json.RawMessage {
	raw, _ := json.Marshal(ErrorRecord{Code: string(errcode.JobLeaseLost),
		Message: "the lease lapsed: the worker holding the run stopped renewing it", Attempt: attempt})
	return raw
}
