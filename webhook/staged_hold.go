package webhook

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// StagedHold is how long an endpoint whose staged attempt failed (it was
// unreachable, timed out, answered 5xx or throttled, or its URL was
// refused) is not posted to by staged attempts: its deliveries go to runs
// at once, which follow the endpoint at their own backoff, so that one
// endpoint down does not hold every batch of the stream for its timeout.
const StagedHold = 30 * time.Second

// StagedTimeout bounds a staged attempt's request, or the job's Timeout
// when that is shorter. The relay posts a batch inside the transaction
// that saves its cursor, so an endpoint that stops answering would hold
// that transaction open for the whole attempt's Timeout (30 s by default);
// a staged attempt gives up sooner, its endpoint is held, and its run has
// the full Timeout.
const StagedTimeout = 5 * time.Second

// holds are the endpoints a Staged does not post to, until when. Its
// deliveries read it at once, so the usual case — none held — takes no
// lock.
type holds struct {
	n     atomic.Int64
	mu    sync.Mutex
	until map[string]time.Time
	now   func() time.Time
}

func (h *holds) held(id string) bool {
	if h.n.Load() == 0 {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	until, ok := h.until[id]
	if ok && !h.now().Before(until) {
		delete(h.until, id)
		h.n.Add(-1)
		return false
	}
	return ok
}

func (h *holds) hold(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.until[id]; !ok {
		h.n.Add(1)
	}
	h.until[id] = h.now().Add(StagedHold)
}

// holdsEndpoint answers whether a staged attempt's error says its endpoint
// is down, rather than this one event refused (a 4xx, a bad event).
func holdsEndpoint(err error) bool {
	switch outcomeOf(err) {
	case Failed, Throttled:
		return true
	case Refused:
		return errcode.CodeOf(err) == errcode.WebhookEndpointInvalid
	}
	return false
}
