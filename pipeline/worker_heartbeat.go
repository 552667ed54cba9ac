package pipeline

import (
	"context"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// heartbeatLoop renews every held lease each Heartbeat until ctx ends (which
// Stop does only once no body is held). A renewal that fails is
// jobs.heartbeat.failed; a run with no renewal landing for a whole lease
// window is jobs.lease.lost, and its body is cancelled with X_JOB_LEASE_LOST:
// the queue may already have handed it to another worker.
func (w *Worker) heartbeatLoop(ctx context.Context) {
	defer w.loops.Done()
	t := time.NewTicker(w.cfg.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.renewHeld(ctx)
			// Not cancelled by Stop: an announce cut off mid-statement may
			// still land after Stop's retire and bring the row back (seen
			// through PgBouncer, which runs a statement its client gave up on).
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.cfg.Heartbeat)
			w.announce(actx)
			cancel()
		}
	}
}

// renewHeld renews the leases of every held run once; it answers the
// renewal's error (nil too when there was nothing to renew).
func (w *Worker) renewHeld(ctx context.Context) error {
	var held []*heldRun
	for _, h := range w.heldRuns() {
		if !h.settling.Load() || h.retrying.Load() { // a settling run's row is the settle's to write, unless it waits for the database
			held = append(held, h)
		}
	}
	if len(held) == 0 {
		return nil
	}
	rows := make([]*claimed, len(held))
	for i, h := range held {
		rows[i] = h.row
	}
	rctx, cancel := context.WithTimeout(ctx, w.cfg.Heartbeat)
	defer cancel()
	landed, err := w.store.renew(rctx, rows, w.cfg.Lease)
	w.database.observe(w.log, err, ctx.Err() != nil)
	now := time.Now()
	if err != nil {
		w.log.warn("jobs.heartbeat.failed", "runs", len(rows), "error", safeErr(err))
	}
	for _, h := range held {
		found, ours := landed[h.row.id]
		switch {
		case err == nil && found == renewed:
			w.renewed(h, now)
		case err == nil && found == cancelled:
			h.cancel(cancelledErr(h.row.name))
		case err == nil && ours && now.Sub(w.lastRenewed(h)) < w.cfg.Lease:
			// busy under another statement's lock: still ours, renewed next beat
		case h.settling.Load():
			// the body ended meanwhile: the settle owns the row now
		case err == nil && !ours:
			w.lost(h, "the run's claim moved on")
		case err == nil:
			w.lost(h, "no renewal landed for a whole lease window")
		case now.Sub(w.lastRenewed(h)) >= w.cfg.Lease:
			if errcode.Unavailable(errcode.Postgres(context.Background(), err, "renew")) {
				h.lostInOutage.Store(true)
			}
			w.lost(h, "no renewal landed for a whole lease window")
		}
	}
	return err
}

func (w *Worker) renewed(h *heldRun, now time.Time) {
	w.mu.Lock()
	h.lastRenewed = now
	w.mu.Unlock()
}

func (w *Worker) lastRenewed(h *heldRun) time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return h.lastRenewed
}

func (w *Worker) lost(h *heldRun, why string) {
	w.leaseLost(h.row.queue)
	w.log.error("jobs.lease.lost", "job", h.row.name, "id", h.row.id.String(), "reason", why)
	h.cancel(errcode.New(errcode.JobLeaseLost, "job %s: this worker lost the run's lease", h.row.name).
		WithFix("keep the database reachable and bodies shorter than the lease; alert on jobs.lease.lost"))
}
