package backfill

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

// gate waits, before a batch, while an operator holds the pass or the
// database is unhealthy, saying why in the ledger. A pass cancelled in the
// ledger stops with X_JOB_CANCELLED.
func (w *walker[In]) gate(ctx context.Context) error {
	for {
		state, reason, err := w.blocked(ctx)
		if err != nil || state == "" {
			return err
		}
		w.report(ctx, state, reason, "")
		if err := sleep(ctx, w.d.o.Poll); err != nil {
			return err
		}
	}
}

// blocked answers the state and reason that keep the next batch back, or
// "" when nothing does.
func (w *walker[In]) blocked(ctx context.Context) (state, reason string, err error) {
	var held bool
	if err := w.conn.QueryRow(ctx, sqlLedgerHeld, w.runID).Scan(&held, &state); err != nil {
		return "", "", errcode.Postgres(ctx, err, "backfill "+w.d.name+": read the ledger")
	}
	switch {
	case state == "cancelled":
		return "", "", errcode.New(errcode.JobCancelled, "backfill %s: the pass was cancelled", w.d.name).
			WithFix("none: the pass keeps its cursor in the ledger; enqueue a new pass to start over")
	case held:
		return "paused", "paused by an operator (pipe backfill resume)", nil
	}
	if time.Since(w.checked) < w.d.o.Health.Every {
		return "", "", nil
	}
	reason, err = w.d.o.Health.unhealthy(ctx, w.conn)
	if err != nil {
		return "", "", errcode.Postgres(ctx, err, "backfill "+w.d.name+": read the database's health")
	}
	if reason == "" {
		w.checked = time.Now()
		return "", "", nil
	}
	return "waiting", reason, nil
}

// report writes the pass's state between batches. It is a report: a
// failure to write it is not the pass's.
func (w *walker[In]) report(ctx context.Context, state, reason, code string) {
	_, _ = w.conn.Exec(ctx, sqlLedgerReport, w.runID, state, nullable(reason), nullable(code), w.size)
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// lockMet reports whether a batch failed for want of a lock within its
// lock_timeout (55P03), or a deadlock with the application (40P01).
func lockMet(err error) bool {
	return sqlstate(err) == "55P03" || sqlstate(err) == "40P01"
}

// retriable reports whether a batch cut by a lock or a timeout may be
// tried again smaller: 55P03, 40P01, or 57014 (the statement timeout).
func retriable(err error) bool { return lockMet(err) || sqlstate(err) == "57014" }

func sqlstate(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code
	}
	return ""
}
