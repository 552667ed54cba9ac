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

// warnUnserved names, once at start, every registered job whose queue this
// worker does not serve: its runs would wait for another worker, and
// without one they wait for ever, silently (a consumer's arm job in the
// default queue, with only the consumer's queue served, is the usual case).
func (w *Worker) warnUnserved() {
	for _, name := range w.names {
		job, _ := w.cfg.Registry.Lookup(name)
		if q := job.declaration().queue; !w.serves(q) {
			w.log.warn("jobs.worker.unserved", "job", name, "queue", q,
				"fix", "add the queue to WorkerConfig.Queues (pipe worker --queue), or run a worker that serves it")
		}
	}
}
