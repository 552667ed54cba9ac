package pipeline

import (
	"sync"
	"time"

	"github.com/pipekit/pipe/internal/pgwake"
)

// wakeChannel is the LISTEN channel enqueues notify on.
const wakeChannel = "pipe_jobs"

// cancelChannel is the LISTEN channel [Admin.Cancel] notifies with the id of
// a running run it cancelled, so that the worker holding it cancels its body
// at once instead of at its next heartbeat.
const cancelChannel = "pipe_cancel"

// DefaultWakeThrottle is the least time between two wake notifications for
// one queue from one process to one server.
const DefaultWakeThrottle = 250 * time.Millisecond

// wakeThrottle lets at most one notification per window through.
type wakeThrottle struct {
	mu     sync.Mutex
	last   time.Time
	window time.Duration
}

func (w *wakeThrottle) allow(now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.last.IsZero() && now.Sub(w.last) < w.window {
		return false
	}
	w.last = now
	return true
}

func (w *wakeThrottle) setWindow(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.window = d
}

// wakeThrottles are the process's throttles, one per (server, queue): every
// notifying commit on a server queues behind one lock, so the bound is per
// queue, whichever job enqueues into it. windows holds the queues whose
// window SetWakeThrottle changed.
var wakeThrottles = struct {
	sync.Mutex
	byQueue map[[2]string]*wakeThrottle
	windows map[string]time.Duration
}{byQueue: map[[2]string]*wakeThrottle{}, windows: map[string]time.Duration{}}

// wakeAllowed answers whether an enqueue into queue through db may notify now.
func wakeAllowed(db DB, queue string, now time.Time) bool {
	key := [2]string{pgwake.ServerOf(db), queue}
	wakeThrottles.Lock()
	t := wakeThrottles.byQueue[key]
	if t == nil {
		window, ok := wakeThrottles.windows[queue]
		if !ok {
			window = DefaultWakeThrottle
		}
		t = &wakeThrottle{window: window}
		wakeThrottles.byQueue[key] = t
	}
	wakeThrottles.Unlock()
	return t.allow(now)
}

// SetWakeThrottle sets the least time between two wake notifications this
// process sends to one server for the job's queue (default 250 ms): every
// job enqueueing into that queue shares it. Shorter wakes idle workers
// sooner at the price of more notifying commits.
func (j *Job[In, Out]) SetWakeThrottle(d time.Duration) {
	wakeThrottles.Lock()
	defer wakeThrottles.Unlock()
	wakeThrottles.windows[j.spec.queue] = d
	for key, t := range wakeThrottles.byQueue {
		if key[1] == j.spec.queue {
			t.setWindow(d)
		}
	}
}
