package pipeline

import (
	"context"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/errcode"
)

// Held is a pool connection a body holds beyond its steps (see [Hold]).
type Held struct {
	conn    *pgxpool.Conn
	budget  chan struct{}
	release sync.Once
}

// Conn answers the held connection.
func (h *Held) Conn() *pgxpool.Conn { return h.conn }

// Release gives the connection back to the pool and its place back to the
// worker's budget. It may be called more than once; the worker calls it for
// the body when the body ends.
func (h *Held) Release() {
	h.release.Do(func() {
		h.conn.Release()
		<-h.budget
	})
}

// Hold acquires a connection of the worker's pool for the body to keep
// across steps — a long read-only transaction that holds one snapshot, a
// cursor, a LISTEN — until it calls Release or the body ends. Held
// connections have a budget of their own, half the pool, so that bodies
// holding connections can never take every connection their own steps
// need: a body over the budget waits here for another to release one (or
// for its context). Call it between steps, never inside a StepTx or a
// FencedTx: a transaction waiting for a held connection would keep its own
// from the bodies it waits for (it is X_INVARIANT there). Outside a job body
// it is X_INVARIANT; on a pool of one connection it is X_CONFIG_INVALID.
func Hold(ctx context.Context) (*Held, error) {
	rs := runFrom(ctx)
	if rs == nil {
		return nil, errcode.New(errcode.Invariant, "hold a connection: called outside a job body").
			WithFix("call Hold with the context the worker passed to the body")
	}
	if inStepTransaction(ctx) {
		return nil, errcode.New(errcode.Invariant, "job %s: Hold called inside a step's transaction", rs.spec.name).
			WithFix("hold the connection before the step (StepTx, FencedTx) begins")
	}
	budget := rs.w.holds
	if cap(budget) == 0 {
		return nil, errcode.New(errcode.ConfigInvalid, "job %s: the worker's pool has one connection: a held connection would leave the steps none", rs.spec.name).
			WithFix("give the worker's pool two connections or more (pool_max_conns)")
	}
	select {
	case budget <- struct{}{}:
	case <-ctx.Done():
		return nil, errcode.Postgres(ctx, context.Cause(ctx), "job "+rs.spec.name+": hold a connection")
	}
	conn, err := rs.w.pool.Acquire(ctx)
	if err != nil {
		<-budget
		return nil, errcode.Postgres(ctx, err, "job "+rs.spec.name+": hold a connection")
	}
	h := &Held{conn: conn, budget: budget}
	rs.mu.Lock()
	rs.holds = append(rs.holds, h)
	rs.mu.Unlock()
	return h, nil
}

type txKey struct{}

// withinTransaction marks the context a StepTx or FencedTx hands its function.
func withinTransaction(ctx context.Context) context.Context {
	return context.WithValue(ctx, txKey{}, true)
}

func inStepTransaction(ctx context.Context) bool {
	in, _ := ctx.Value(txKey{}).(bool)
	return in
}

// releaseHolds releases what the body still holds once it ended.
func (rs *runState) releaseHolds() {
	rs.mu.Lock()
	holds := rs.holds
	rs.holds = nil
	rs.mu.Unlock()
	for _, h := range holds {
		h.Release()
	}
}
