package pipeline

import (
	"context"
	"os"

	"github.com/google/uuid"
)

// announce writes or renews this worker's row in pipe.workers: its queues,
// the runs it holds and when it must be heard from again.
func (w *Worker) announce(ctx context.Context) {
	held := w.heldRuns()
	ids := make([]uuid.UUID, len(held))
	for i, h := range held {
		ids[i] = h.row.id
	}
	host, _ := os.Hostname()
	_, err := w.pool.Exec(ctx, sqlWorkerAnnounce, w.cfg.ID, host, w.cfg.Queues, w.cfg.MaxInFlight, ids, w.cfg.Lease)
	if err != nil {
		w.log.warn("jobs.worker.announce_failed", "error", safeErr(err))
	}
}

// retire removes this worker's row.
func (w *Worker) retire(ctx context.Context) {
	_, _ = w.pool.Exec(ctx, `delete from pipe.workers where id = $1`, w.cfg.ID)
}
