package storebench

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// The statements of the job core the timer tells apart, by the first line
// of their SQL (pipeline/queries: claim.sql, enqueue.sql, enqueue_fresh.sql,
// complete.sql).
const (
	kindClaim    = "claim"
	kindEnqueue  = "enqueue"
	kindComplete = "complete"
)

var kindPrefixes = []struct{ prefix, kind string }{
	{"-- One claim pass", kindClaim},
	{"-- Enqueue a batch", kindEnqueue},
	{"-- Settle a batch of runs done", kindComplete},
}

// kindOf answers which job-core statement sql is, or "".
func kindOf(sql string) string {
	for _, p := range kindPrefixes {
		if strings.HasPrefix(sql, p.prefix) {
			return p.kind
		}
	}
	return ""
}

// timed is one statement the timer saw: its kind, when it was sent and
// how long it took to answer.
type timed struct {
	kind  string
	start time.Time
	took  time.Duration
}

func (t timed) end() time.Time { return t.start.Add(t.took) }

// stmtTimer is a pgx tracer that times the claim, enqueue and settle
// statements a pool sends, where the worker and the application send
// them: a statement alone from send to answer, one in a pipelined batch
// as the whole batch, one round trip (the claim's batch is begin, its
// settings, the claim and commit) from send to close.
type stmtTimer struct {
	mu   sync.Mutex
	seen []timed
}

type startKey struct{}

type started struct {
	kind string
	at   time.Time
}

func (t *stmtTimer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if k := kindOf(d.SQL); k != "" {
		return context.WithValue(ctx, startKey{}, started{kind: k, at: time.Now()})
	}
	return ctx
}

func (t *stmtTimer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	if s, ok := ctx.Value(startKey{}).(started); ok && d.Err == nil {
		t.add(timed{kind: s.kind, start: s.at, took: time.Since(s.at)})
	}
}

func (t *stmtTimer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	if d.Batch == nil {
		return ctx
	}
	for _, q := range d.Batch.QueuedQueries {
		if k := kindOf(q.SQL); k != "" {
			return context.WithValue(ctx, startKey{}, started{kind: k, at: time.Now()})
		}
	}
	return ctx
}

func (t *stmtTimer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (t *stmtTimer) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchEndData) {
	if s, ok := ctx.Value(startKey{}).(started); ok && d.Err == nil {
		t.add(timed{kind: s.kind, start: s.at, took: time.Since(s.at)})
	}
}

func (t *stmtTimer) add(s timed) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seen = append(t.seen, s)
}

// take answers the statements seen since the last take.
func (t *stmtTimer) take() []timed {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.seen
	t.seen = nil
	return out
}

// ofKind answers the durations of the statements of kind k.
func ofKind(ts []timed, k string) []time.Duration {
	var out []time.Duration
	for _, s := range ts {
		if s.kind == k {
			out = append(out, s.took)
		}
	}
	return out
}
