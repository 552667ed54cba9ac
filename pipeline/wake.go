package pipeline

import (
	"sync"
	"time"
)

// wakeChannel is the LISTEN channel enqueues notify on.
const wakeChannel = "pipe_jobs"

// DefaultWakeThrottle is the least time between two wake notifications for
// one queue from one process.
const DefaultWakeThrottle = 250 * time.Millisecond

// wakeThrottle lets at most one notification per window through.
type wakeThrottle struct {
	mu     sync.Mutex
	last   time.Time
	window time.Duration
}

func newWakeThrottle() *wakeThrottle { return &wakeThrottle{window: DefaultWakeThrottle} }

func (w *wakeThrottle) allow(now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.last.IsZero() && now.Sub(w.last) < w.window {
		return false
	}
	w.last = now
	return true
}

// SetWakeThrottle sets the least time between two wake notifications this
// process sends for the job's queue (default 250 ms). Shorter wakes idle
// workers sooner at the price of more notifying commits.
func (j *Job[In, Out]) SetWakeThrottle(d time.Duration) {
	j.wakes.mu.Lock()
	defer j.wakes.mu.Unlock()
	j.wakes.window = d
}
