// Package pgwake wakes pollers by a PostgreSQL notification: one LISTEN
// session on a dedicated connection per channel, proven by a probe
// notification sent through the pool. The poll stays the guarantee — a
// lost or unproven wake only means the pollers keep their short poll.
package pgwake

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ProbeTimeout is how long the probe notification may take to come back
// before the wake is reported unproven (the pollers keep polling short).
const ProbeTimeout = 2 * time.Second

// Options declare a listener.
type Options struct {
	// Channel is the channel the writers notify, the payload naming the
	// key woken (empty: every key). Required.
	Channel string
	// Pool sends the probe notification.
	Pool *pgxpool.Pool
	// Listen is the connection the LISTEN session dials (see [Dial]).
	// Default: a copy of Pool's.
	Listen *pgx.ConnConfig
	// Logger hears whether the wake is live or polling, under Event.
	Logger *slog.Logger
	// Event prefixes the log events: <Event>.live, <Event>.polling,
	// <Event>.lost.
	Event string
}

// Listener holds one LISTEN session while it has users, and signals the
// waiters of a key when a notification names it.
type Listener struct {
	o      Options
	proven atomic.Bool

	mu      sync.Mutex
	users   int
	stop    context.CancelFunc
	done    chan struct{}
	signals map[string]chan struct{}
}

// New answers a listener; it listens only between Acquire and the last
// Release.
func New(o Options) *Listener {
	if o.Listen == nil {
		o.Listen = o.Pool.Config().ConnConfig.Copy()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return &Listener{o: o, signals: map[string]chan struct{}{}}
}

// Dial opens the LISTEN session's connection: the one seam where it is
// made, so that it can be pointed elsewhere (a direct URL beside a
// transaction-pooling PgBouncer).
func Dial(ctx context.Context, cfg *pgx.ConnConfig) (*pgx.Conn, error) {
	return pgx.ConnectConfig(ctx, cfg)
}

// Acquire starts the LISTEN session if it is the first user.
func (l *Listener) Acquire() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.users++
	if l.users > 1 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	l.stop, l.done = cancel, make(chan struct{})
	go l.loop(ctx, l.done)
}

// Release ends the LISTEN session with its last user, and waits for it.
func (l *Listener) Release() {
	l.mu.Lock()
	l.users--
	if l.users > 0 {
		l.mu.Unlock()
		return
	}
	stop, done := l.stop, l.done
	l.mu.Unlock()
	stop()
	<-done
}

// Proven tells whether a probe came back on the current session: until
// then, and after the session is lost, a notification may not arrive.
func (l *Listener) Proven() bool { return l.proven.Load() }

// Signal answers a channel closed at the next notification naming key (or
// none), or when the session is lost or proven. Take it before looking for
// work, so that a notification during the look is not missed.
func (l *Listener) Signal(key string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch, ok := l.signals[key]
	if !ok {
		ch = make(chan struct{})
		l.signals[key] = ch
	}
	return ch
}

// wake closes key's signal, or every signal for an empty key.
func (l *Listener) wake(key string, all bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, ch := range l.signals {
		if all || k == key {
			close(ch)
			delete(l.signals, k)
		}
	}
}

// probeID answers a fresh probe payload.
func probeID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "pipe.probe:" + hex.EncodeToString(b)
}
