package idlebench

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// txCounter counts the transactions a pool's connections begin: each
// statement or batch sent outside a transaction block (an autocommit one,
// or the BEGIN of a block).
type txCounter struct {
	n atomic.Int64
}

func (c *txCounter) begun(conn *pgx.Conn) {
	if conn.PgConn().TxStatus() == 'I' {
		c.n.Add(1)
	}
}

func (c *txCounter) TraceQueryStart(ctx context.Context, conn *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.begun(conn)
	return ctx
}

func (c *txCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *txCounter) TraceBatchStart(ctx context.Context, conn *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.begun(conn)
	return ctx
}

func (c *txCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (c *txCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// wakeLog passes records on and remembers the last wake event heard.
type wakeLog struct {
	next slog.Handler
	mu   *sync.Mutex
	last *string
}

func newWakeLog(next slog.Handler) *wakeLog {
	return &wakeLog{next: next, mu: &sync.Mutex{}, last: new(string)}
}

func (w *wakeLog) Enabled(context.Context, slog.Level) bool { return true }

func (w *wakeLog) Handle(ctx context.Context, r slog.Record) error {
	switch r.Message {
	case "pgtail.wake.live", "jobs.wake.live":
		w.set("live")
	case "pgtail.wake.polling", "pgtail.wake.lost", "jobs.wake.unverified", "jobs.wake.lost":
		w.set("polling")
	}
	if !w.next.Enabled(ctx, r.Level) {
		return nil
	}
	return w.next.Handle(ctx, r)
}

func (w *wakeLog) set(s string) {
	w.mu.Lock()
	*w.last = s
	w.mu.Unlock()
}

func (w *wakeLog) state() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return *w.last
}

func (w *wakeLog) WithAttrs(as []slog.Attr) slog.Handler {
	return &wakeLog{next: w.next.WithAttrs(as), mu: w.mu, last: w.last}
}

func (w *wakeLog) WithGroup(g string) slog.Handler {
	return &wakeLog{next: w.next.WithGroup(g), mu: w.mu, last: w.last}
}
