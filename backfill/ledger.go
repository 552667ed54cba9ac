package backfill

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Pass is one row of the ledger, pipe.backfills: one pass of a backfill.
type Pass struct {
	RunID string `json:"runId"`
	JobID string `json:"jobId"`
	Name  string `json:"name"`
	// Target is the table walked, as SQL writes it, or "query".
	Target string `json:"target"`
	// State is running, paused (an operator's pause), waiting (the database
	// is unhealthy, or a batch met a lock), done, failed (the last attempt
	// failed; the job core retries or dead-letters it) or cancelled.
	State string `json:"state"`
	// Held is an operator's pause, still in force.
	Held bool `json:"held"`
	// Cursor is the last key a committed batch worked, as text.
	Cursor  *string `json:"cursor"`
	Rows    int64   `json:"rows"`
	Batches int64   `json:"batches"`
	// BatchSize is the size the next batch asks for; Rate the rows a second
	// of the last batch.
	BatchSize int     `json:"batchSize"`
	Rate      float64 `json:"rate"`
	// Total is the catalog's estimate of the table's rows at the start
	// (none for a query, or a table never analyzed).
	Total *int64 `json:"total"`
	// ETA is the time left at Rate for the rows of Total not yet worked.
	ETA         *time.Duration `json:"etaNs,omitempty"`
	PauseReason *string        `json:"pauseReason"`
	LastError   *string        `json:"lastErrorCode"`
	StartedAt   time.Time      `json:"startedAt"`
	UpdatedAt   time.Time      `json:"updatedAt"`
	FinishedAt  *time.Time     `json:"finishedAt"`
}

func (p *Pass) eta() {
	if p.Total == nil || p.Rate <= 0 || p.State == "done" || p.State == "cancelled" {
		return
	}
	left := max(*p.Total-p.Rows, 0)
	d := time.Duration(float64(left) / p.Rate * float64(time.Second))
	p.ETA = &d
}

// List answers the ledger's passes, newest first, at most limit; name, when
// not empty, keeps those of one backfill.
func List(ctx context.Context, db pipeline.DB, name string, limit int) ([]Pass, error) {
	var n *string
	if name != "" {
		n = &name
	}
	return list(ctx, db, nil, n, limit)
}

// Show answers one pass by its run id, or the newest pass of a backfill by
// its name; none is X_BACKFILL_NOT_FOUND.
func Show(ctx context.Context, db pipeline.DB, ref string) (Pass, error) {
	var id *uuid.UUID
	var name *string
	if u, err := uuid.Parse(ref); err == nil {
		id = &u
	} else {
		name = &ref
	}
	ps, err := list(ctx, db, id, name, 1)
	if err != nil {
		return Pass{}, err
	}
	if len(ps) == 0 {
		return Pass{}, errcode.New(errcode.BackfillNotFound, "no backfill pass has that run id or name").
			WithFix("pipe backfill list names every pass")
	}
	return ps[0], nil
}

// InFlight answers the passes running, paused or waiting, newest first, at
// most limit (`pipe jobs list` shows them).
func InFlight(ctx context.Context, db pipeline.DB, limit int) ([]Pass, error) {
	rows, _ := db.Query(ctx, sqlInFlight, limit)
	return scanPasses(ctx, rows)
}

func list(ctx context.Context, db pipeline.DB, id *uuid.UUID, name *string, limit int) ([]Pass, error) {
	rows, _ := db.Query(ctx, sqlLedgerList, id, name, limit)
	return scanPasses(ctx, rows)
}

func scanPasses(ctx context.Context, rows pgx.Rows) ([]Pass, error) {
	var p Pass
	var run, job uuid.UUID
	var out []Pass
	_, err := pgx.ForEachRow(rows, []any{&run, &job, &p.Name, &p.Target, &p.State, &p.Held, &p.Cursor, &p.Rows,
		&p.Batches, &p.BatchSize, &p.Rate, &p.Total, &p.PauseReason, &p.LastError, &p.StartedAt, &p.UpdatedAt, &p.FinishedAt}, func() error {
		p.RunID, p.JobID, p.ETA = run.String(), job.String(), nil
		p.eta()
		out = append(out, p)
		return nil
	})
	return out, errcode.Postgres(ctx, err, "backfill ledger: list")
}

// Pause holds a pass: it stops before its next batch, state paused, until
// [Resume]. The pass keeps its worker; a finished pass is X_BACKFILL_NOT_FOUND.
func Pause(ctx context.Context, db pipeline.DB, ref string) (Pass, error) {
	return hold(ctx, db, ref, true)
}

// Resume lifts an operator's pause.
func Resume(ctx context.Context, db pipeline.DB, ref string) (Pass, error) {
	return hold(ctx, db, ref, false)
}

func hold(ctx context.Context, db pipeline.DB, ref string, held bool) (Pass, error) {
	p, err := Show(ctx, db, ref)
	if err != nil {
		return p, err
	}
	var id uuid.UUID
	err = db.QueryRow(ctx, sqlLedgerHold, p.RunID, held).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, finished(p)
	}
	if err != nil {
		return p, errcode.Postgres(ctx, err, "backfill ledger: pause")
	}
	return Show(ctx, db, p.RunID)
}

// Cancel stops a pass for good: its job is cancelled (a batch in flight
// commits nothing) and its ledger row is cancelled, its cursor kept.
func Cancel(ctx context.Context, db pipeline.DB, ref, reason string) (Pass, error) {
	p, err := Show(ctx, db, ref)
	if err != nil {
		return p, err
	}
	// The ledger and the run are cancelled in one transaction: a pass that
	// read its ledger cancelled before its run was would fail its run with
	// X_JOB_CANCELLED, dead-lettered, instead of cancelled.
	tx, err := db.Begin(ctx)
	if err != nil {
		return p, errcode.Postgres(ctx, err, "backfill ledger: cancel")
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	var id uuid.UUID
	err = tx.QueryRow(ctx, sqlLedgerCancel, p.RunID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, finished(p)
	}
	if err != nil {
		return p, errcode.Postgres(ctx, err, "backfill ledger: cancel")
	}
	err = pipeline.NewAdmin(tx).Cancel(ctx, p.JobID, reason)
	if err != nil && !errors.Is(err, errcode.JobNotCancellable) {
		return p, err
	}
	if err := tx.Commit(ctx); err != nil {
		return p, errcode.Postgres(ctx, err, "backfill ledger: cancel")
	}
	return Show(ctx, db, p.RunID)
}

func finished(p Pass) error {
	return errcode.New(errcode.BackfillNotFound, "backfill %s: the pass is %s", p.Name, p.State).
		WithFix("pause, resume and cancel act on a pass that is not finished; pipe backfill list shows each pass's state")
}
