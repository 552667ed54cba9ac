package pipeline

import (
	"github.com/google/uuid"
	"github.com/pipekit/pipe/errcode"
)

// cancelHeldRun cancels the body of a run an operator cancelled, if this
// worker holds it, with X_JOB_CANCELLED: its steps refuse to write, and the
// run is accounted a cancel, not a lost lease.
func (w *Worker) cancelHeldRun(id string) {
	uid, err := uuid.Parse(id)
	if err != nil {
		return
	}
	w.mu.Lock()
	h := w.held[uid]
	w.mu.Unlock()
	if h != nil {
		h.cancel(cancelledErr(h.row.name))
	}
}

func cancelledErr(job string) error {
	return errcode.New(errcode.JobCancelled, "job %s: an operator cancelled the run", job).
		WithFix("none: the run is cancelled; `pipe jobs retry ID` runs it again")
}
