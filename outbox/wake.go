package outbox

import (
	"slices"
	"sync"
	"time"

	"github.com/pipekit/pipe/internal/pgwake"
	"github.com/pipekit/pipe/pipeline"
)

// DefaultWakeThrottle is the least time between two notifications of one
// stream's relay that this process's stagings send to one server.
//
// Every notifying commit on a server queues behind one lock (PostgreSQL
// serialises the commits of transactions that NOTIFY), so a notification
// per staging would cap concurrent one-row stagings at the server's commit
// rate: four connections staging one row a transaction went from 1,500 to
// 400 commits a second. One notification per stream per window wakes an
// idle relay at once; a woken relay looks again within tens of
// milliseconds, so the stagings the throttle leaves silent are picked up by
// its poll.
const DefaultWakeThrottle = 250 * time.Millisecond

// wakes are the process's throttles, one per (server, stream).
var wakes = struct {
	sync.Mutex
	window time.Duration
	last   map[[2]string]time.Time
}{window: DefaultWakeThrottle, last: map[[2]string]time.Time{}}

// SetWakeThrottle sets the least time between two notifications of a
// stream's relay this process's stagings send to one server (default
// DefaultWakeThrottle); 0 notifies with every staging statement.
func SetWakeThrottle(d time.Duration) {
	wakes.Lock()
	defer wakes.Unlock()
	wakes.window = d
}

// notifying answers the streams of ms a staging through db notifies now.
func notifying(db pipeline.DB, ms []Message) []string {
	server, now := pgwake.ServerOf(db), time.Now()
	wakes.Lock()
	defer wakes.Unlock()
	var out []string
	for _, m := range ms {
		key := [2]string{server, m.Stream}
		if slices.Contains(out, m.Stream) {
			continue
		}
		if last, ok := wakes.last[key]; ok && now.Sub(last) < wakes.window {
			continue
		}
		wakes.last[key] = now
		out = append(out, m.Stream)
	}
	return out
}
