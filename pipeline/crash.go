package pipeline

import (
	"errors"

	"github.com/pipekit/pipe/internal/simhook"
)

// errCrash is what a step answers when the test kit's AfterStep hook kills
// the attempt at a step boundary: the worker then abandons the run as if its
// process had died.
var errCrash = errors.New("pipeline: the attempt was killed at a step boundary (test kit)")

// boundary offers the step boundary to the test kit's hook.
func (rs *runState) boundary(step string) error {
	h := simhook.Of(rs.w.cfg.ID)
	if h == nil || h.AfterStep == nil || !h.AfterStep(rs.spec.name, step) {
		return nil
	}
	return errCrash
}

// abandon lets a killed attempt go without a settle: its row keeps its lease
// until it lapses and the next claim takes it.
func (w *Worker) abandonKilled(row *claimed) {
	w.mu.Lock()
	delete(w.held, row.id)
	w.mu.Unlock()
	w.log.debug("jobs.attempt.killed", "job", row.name, "id", row.id.String())
}
