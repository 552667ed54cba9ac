package pipeline

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// wakeProbeTimeout is how long a probe notification may take to come back
// before the wake is reported unverified.
const wakeProbeTimeout = 2 * time.Second

// provenIdlePollMax is the default idle ceiling once the wake is proven.
const provenIdlePollMax = 5 * time.Second

// listenLoop holds one LISTEN session on its own connection and wakes the
// fetch loop when a served queue is notified. The poll stays the guarantee:
// a lost session is re-dialled and the poll covers the gap.
func (w *Worker) listenLoop(ctx context.Context) {
	defer w.loops.Done()
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := w.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		w.log.warn("jobs.wake.lost", "error", safeErr(err))
		w.idleMax.Store(int64(w.cfg.IdlePollMax))
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

func (w *Worker) listenOnce(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, w.listenConfig())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "listen "+wakeChannel+"; listen "+cancelChannel); err != nil {
		return err
	}
	probe := "probe:" + w.cfg.ID
	if _, err := w.pool.Exec(ctx, sqlNotify, probe); err != nil {
		return err
	}
	proven := false
	probeDeadline := time.Now().Add(wakeProbeTimeout)
	for {
		wctx, cancel := context.WithDeadline(ctx, w.nextListenDeadline(proven, probeDeadline))
		n, err := conn.WaitForNotification(wctx)
		cancel()
		if err != nil && ctx.Err() == nil && !proven && time.Now().After(probeDeadline) {
			w.log.warn("jobs.wake.unverified", "fix", "give the worker a direct or session-pooled database URL")
			proven = true // reported once; the ceiling stays IdlePollMax
			continue
		}
		if err != nil {
			if wctx.Err() != nil && ctx.Err() == nil {
				continue
			}
			return err
		}
		if n.Channel == cancelChannel {
			w.cancelHeldRun(n.Payload)
			continue
		}
		proven = w.onNotification(n.Payload, probe, proven)
	}
}

func (w *Worker) nextListenDeadline(proven bool, probeDeadline time.Time) time.Time {
	if !proven {
		return probeDeadline
	}
	return time.Now().Add(time.Minute)
}

func (w *Worker) onNotification(payload, probe string, proven bool) bool {
	if payload == probe {
		if !proven {
			w.log.info("jobs.wake.live")
			if !w.cfg.idleMaxSet {
				w.idleMax.Store(int64(provenIdlePollMax))
			}
		}
		return true
	}
	if strings.HasPrefix(payload, "probe:") || !w.serves(payload) {
		return proven
	}
	select {
	case w.wakeCh <- struct{}{}:
	default:
	}
	return proven
}

func (w *Worker) serves(queue string) bool {
	_, ok := w.cfg.Queues[queue]
	return ok
}
