package pipeline

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// checkPooler probes the worker's pool when it starts, unless nothing
// would change: it refuses a pool that names prepared statements behind a
// transaction pooler, and notes the pooler, whose LISTEN hears nothing
// (see wakes).
func (w *Worker) checkPooler(ctx context.Context) error {
	cfg := w.pool.Config().ConnConfig
	if PoolerSafe(cfg) && (w.cfg.NoWake || w.cfg.ListenConfig != nil) {
		return nil
	}
	pooled, err := TransactionPooled(ctx, cfg)
	if err != nil {
		return errcode.Postgres(ctx, err, "worker "+w.cfg.ID+": probe the database URL for a transaction pooler")
	}
	w.pooled = pooled
	if pooled && !PoolerSafe(cfg) {
		return errPoolerUnsafe("worker " + w.cfg.ID)
	}
	return nil
}

// wakes reports whether the worker holds a LISTEN: not with NoWake, nor on
// a transaction-pooled URL with no ListenConfig past the pooler.
func (w *Worker) wakes() bool {
	return !w.cfg.NoWake && (!w.pooled || w.cfg.ListenConfig != nil)
}

// warnPooledWake says at start that a pooled worker polls, and what to set.
func (w *Worker) warnPooledWake() {
	if !w.cfg.NoWake && !w.wakes() {
		w.log.warn("jobs.wake.off", "why", "the database URL leads through a transaction pooler, where LISTEN hears nothing",
			"fix", "give the worker a direct or session-pooled URL for its wake (pipe worker --listen-url, WorkerConfig.ListenConfig)")
	}
}

// listenConfig answers where the LISTEN wake connects: ListenConfig, else
// the pool's own settings.
func (w *Worker) listenConfig() *pgx.ConnConfig {
	if w.cfg.ListenConfig != nil {
		return w.cfg.ListenConfig.Copy()
	}
	return w.pool.Config().ConnConfig.Copy()
}
