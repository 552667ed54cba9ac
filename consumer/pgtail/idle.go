package pgtail

import (
	"context"
	"time"

	"github.com/pipekit/pipe/internal/pgwake"
)

// idle is a caught-up feed's pace: when it looks next, how long it waited
// last, and the wake signal taken before its last look.
type idle struct {
	next   time.Time
	delay  time.Duration
	signal <-chan struct{}
}

// wait waits until the next look is due, the feed is woken, or deadline
// passes; it answers whether a look is due.
func (i *idle) wait(ctx context.Context, deadline time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	now := time.Now()
	if !now.Before(i.next) {
		return true, nil
	}
	if !now.Before(deadline) {
		return false, nil
	}
	until := i.next
	if deadline.Before(until) {
		until = deadline
	}
	timer := time.NewTimer(until.Sub(now))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-i.signal:
		i.reset()
		return true, nil
	case <-timer.C:
		return !time.Now().Before(i.next), nil
	}
}

// arm takes the wake signal of key before a look, so that a notification
// during the look wakes the next wait.
func (i *idle) arm(wake *pgwake.Listener, key string) {
	if wake != nil {
		i.signal = wake.Signal(key)
	}
}

// reset makes the next look due at once, and the one after a Poll later.
func (i *idle) reset() {
	i.next, i.delay = time.Time{}, 0
}

// missed schedules the next look after a look that found nothing: a Poll
// later while the wake is unproven or writers are still in flight (the rows
// they write will settle without a notification of this key), else twice
// the last wait, at most IdlePollMax.
func (i *idle) missed(poll, ceiling time.Duration, wake *pgwake.Listener, pending bool) {
	if wake != nil && wake.Proven() && !pending {
		i.delay = min(max(i.delay*2, poll), ceiling)
	} else {
		i.delay = poll
	}
	i.next = time.Now().Add(i.delay)
}
