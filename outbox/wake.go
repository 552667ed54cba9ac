package outbox

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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
	server, now := serverOf(db), time.Now()
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

// serverOf names the server db talks to, without a round trip.
func serverOf(db pipeline.DB) string {
	switch v := db.(type) {
	case pgx.Tx:
		return remoteAddr(v.Conn())
	case *pgx.Conn:
		return remoteAddr(v)
	case *pgxpool.Pool:
		if s, ok := poolServers.Load(v); ok {
			return s.(string)
		}
		cfg := v.Config().ConnConfig
		s := fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)
		poolServers.Store(v, s)
		return s
	}
	return ""
}

// poolServers caches serverOf per pool: a pool's Config is a copy.
var poolServers sync.Map

func remoteAddr(c *pgx.Conn) string {
	if c == nil || c.PgConn() == nil || c.PgConn().Conn() == nil {
		return ""
	}
	return c.PgConn().Conn().RemoteAddr().String()
}
