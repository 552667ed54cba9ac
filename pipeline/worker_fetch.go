package pipeline

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/simhook"
)

// fetchLoop runs claim passes: at once while passes fill their room (when a
// slot frees), after PollInterval when a pass found some work, and on a
// doubling idle wait otherwise — cut short by a wake notification.
func (w *Worker) fetchLoop(ctx context.Context) {
	defer w.fetching.Done()
	idle, outageWait := w.cfg.PollInterval, outageFirst
	for ctx.Err() == nil {
		started := time.Now()
		found, full, err := w.passAfterOutage(ctx)
		if err != nil && !pgconn.SafeToRetry(err) && errcode.Unavailable(errcode.Postgres(context.Background(), err, "claim")) {
			w.doubt.lost(time.Now())
		}
		wait := idle
		w.database.observe(w.log, err, ctx.Err() != nil)
		switch {
		case err != nil && errcode.Unavailable(errcode.Postgres(context.Background(), err, "claim")):
			// Look again soon, then less often: a cut connection is back at
			// the next dial, a server restarting in seconds.
			wait, outageWait = outageWait, min(outageWait*2, outageProbe)
			idle = w.cfg.PollInterval
		case err != nil:
			if ctx.Err() == nil {
				w.log.warn("jobs.claim.failed", "error", safeErr(err))
			}
			idle = min(idle*2, time.Duration(w.idleMax.Load()))
		case full:
			wait, idle = -1, w.cfg.PollInterval
		case found > 0:
			wait, idle = w.cfg.PollInterval, w.cfg.PollInterval
		default:
			idle = min(idle*2, time.Duration(w.idleMax.Load()))
		}
		if err == nil {
			outageWait = outageFirst
		}
		if !w.waitForPass(ctx, wait) {
			return
		}
		// The cooldown spaces passes that claim, so that a busy queue is
		// claimed in batches. After a pass that found nothing, a wake means
		// work that pass could not see: claim it at once.
		if gap := w.cfg.FetchCooldown - time.Since(started); gap > 0 && found > 0 {
			time.Sleep(gap)
		}
	}
}

// outageFirst is the wait before the first claim after one the database
// did not answer; it doubles, up to outageProbe, the longest a worker waits
// between two claims while the database does not answer.
const (
	outageFirst = 20 * time.Millisecond
	outageProbe = time.Second
)

// passAfterOutage runs a claim pass; while the database was last found gone
// it first renews the runs the worker holds, so that when the database
// comes back this worker's leases are extended before any claim (its own
// included) could take them as lapsed.
func (w *Worker) passAfterOutage(ctx context.Context) (int, bool, error) {
	if w.database.down() {
		if err := w.renewHeld(ctx); err != nil {
			return 0, false, err
		}
	}
	if w.doubt.due(time.Now()) {
		if err := w.recoverClaims(ctx); err != nil {
			return 0, false, err
		}
	}
	return w.pass(ctx)
}

// recoverClaims hands back, uncounted, the runs a claim whose answer was
// lost gave this worker: else they would wait out their lease and then be
// claimed again with an attempt spent. It runs before passes for a while
// after the loss (see claimDoubt), since the lost claim may commit later.
func (w *Worker) recoverClaims(ctx context.Context) error {
	w.mu.Lock()
	owned := make([]uuid.UUID, 0, len(w.owned))
	for id := range w.owned {
		owned = append(owned, id)
	}
	w.mu.Unlock()
	n, err := w.store.handBackOrphans(ctx, w.cfg.ID, owned)
	if err != nil {
		return err
	}
	w.doubt.looked(time.Now())
	if n > 0 {
		w.log.info("jobs.claim.recovered", "runs", n)
	}
	return nil
}

// waitForPass waits d (or, when d < 0, for a slot to free), or for a wake.
func (w *Worker) waitForPass(ctx context.Context, d time.Duration) bool {
	var timer <-chan time.Time
	var slot <-chan struct{}
	if d < 0 {
		slot = w.slotFree
	} else {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
		if w.hasRoom() {
			slot = nil
		} else {
			slot = w.slotFree
		}
	}
	select {
	case <-ctx.Done():
		return false
	case <-w.wakeCh:
	case <-slot:
	case <-timer:
	}
	return true
}

func (w *Worker) hasRoom() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cfg.MaxInFlight == 0 || w.total < w.cfg.MaxInFlight
}

// pass claims one batch over every queue with room and starts each run.
func (w *Worker) pass(ctx context.Context) (found int, full bool, err error) {
	if h := simhook.Of(w.cfg.ID); h != nil && h.BeforePass != nil {
		h.BeforePass()
	}
	defer func() { simhook.Passed(w.cfg.ID, found) }()
	queues, rooms, room, want := w.rooms()
	if want == 0 {
		return 0, true, nil
	}
	rows, buried, err := w.store.claim(ctx, claimRequest{
		queues: queues, rooms: rooms, room: room, names: w.names, noDeadNames: w.noDead,
		workerID: w.cfg.ID, lease: w.cfg.Lease,
	})
	if err != nil {
		return 0, false, err
	}
	w.stats.Passes.Add(1)
	w.buried(buried)
	w.start(rows)
	return len(rows), len(rows) >= want, nil
}

// rooms answers the queues with free slots, starting after the last queue
// served, each with its free slots, and the process's room across them
// (MaxInFlight's; nil without one), which the claim deals over the queues
// in turns: each gets at most ceil(room / queues left), and what a queue
// with less work leaves goes to the next, so no queue starves. want is the
// most the pass can claim.
func (w *Worker) rooms() (queues []string, rooms []int32, room *int32, want int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(w.queues)
	for i := 0; i < n; i++ {
		q := w.queues[(w.next+i)%n]
		if free := w.cfg.Queues[q] - w.inFlight[q]; free > 0 {
			queues, rooms = append(queues, q), append(rooms, int32(free))
			want += free
		}
	}
	w.next = (w.next + 1) % max(n, 1)
	if w.cfg.MaxInFlight > 0 {
		r := int32(max(w.cfg.MaxInFlight-w.total, 0))
		room, want = &r, min(want, int(r))
	}
	return queues, rooms, room, want
}

// start books each claimed run's slot and runs it on a goroutine of its own
// (a pooled one).
func (w *Worker) start(rows []*claimed) {
	w.mu.Lock()
	for _, r := range rows {
		w.inFlight[r.queue]++
		w.total++
		w.owned[r.id] = true
	}
	w.mu.Unlock()
	w.stats.Claimed.Add(int64(len(rows)))
	for _, r := range rows {
		w.bodies.Add(1)
		w.gos.Go(func() { w.run(r) })
	}
}
