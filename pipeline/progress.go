package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// progressEvery is the least time between two progress writes of one run.
const progressEvery = time.Second

// ProgressRecord is a run's progress as its row and `pipe jobs show` keep it.
type ProgressRecord struct {
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
	Note  string `json:"note,omitempty"`
}

// Progress reports how far the run has come. It writes at most once a second
// per run; a report it held back is written before the run settles, so the
// last report always lands. Outside a body it is X_INVARIANT.
func Progress(ctx context.Context, done, total int64, note string) error {
	rs := runFrom(ctx)
	if rs == nil {
		return errcode.New(errcode.Invariant, "progress: called outside a job body").
			WithFix("report progress with the context the worker passed to the body")
	}
	rs.mu.Lock()
	rs.pending = &ProgressRecord{Done: done, Total: total, Note: note}
	due := time.Since(rs.progressAt) >= progressEvery
	rs.mu.Unlock()
	if !due {
		return nil
	}
	return rs.flushProgress(ctx)
}

// flushProgress writes the pending report, fenced on the claim.
func (rs *runState) flushProgress(ctx context.Context) error {
	rs.mu.Lock()
	p := rs.pending
	rs.pending = nil
	rs.progressAt = time.Now()
	rs.mu.Unlock()
	if p == nil {
		return nil
	}
	raw, _ := json.Marshal(p)
	_, err := rs.w.pool.Exec(ctx, sqlProgress, rs.row.id, rs.row.claims, raw)
	return err
}
