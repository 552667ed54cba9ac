package webhook

import (
	"context"
	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// PostgresLedger answers the stock ledger: one row per attempt in
// pipe.webhook_deliveries (migrated by pipe migrate), purged by pipe's
// maintenance past the dead retention.
func PostgresLedger(db pipeline.DB) *PGLedger { return &PGLedger{db: db} }

// PGLedger is the stock ledger over pipe.webhook_deliveries.
type PGLedger struct {
	db pipeline.DB
}

// Record writes one attempt.
func (l *PGLedger) Record(ctx context.Context, a Attempt) error {
	_, err := l.db.Exec(ctx, sqlLedgerRecord.SQL, sqlLedgerRecord.Args(pgx.NamedArgs{
		"job": a.Job, "run_id": a.RunID, "endpoint_id": a.EndpointID, "event_id": a.EventID,
		"attempt": a.Attempt, "status": a.Status, "outcome": string(a.Outcome), "bytes": a.Bytes,
		"duration_ms": a.DurationMs, "code": string(a.Code),
	})...)
	return dbErr(ctx, err, "record a delivery")
}

// Filter narrows [PGLedger.List].
type Filter struct {
	EndpointID string // "" for every endpoint
	EventID    string // "" for every event
	Limit      int    // default 100
}

// List answers the newest attempts, newest first.
func (l *PGLedger) List(ctx context.Context, f Filter) ([]Attempt, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	rows, err := l.db.Query(ctx, sqlLedgerList, f.EndpointID, f.EventID, f.Limit)
	if err != nil {
		return nil, dbErr(ctx, err, "list deliveries")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Attempt, error) {
		var a Attempt
		var code string
		err := r.Scan(&a.Job, &a.RunID, &a.EndpointID, &a.EventID, &a.Attempt, &a.Status, &a.Outcome, &a.Bytes, &a.DurationMs, &code, &a.At)
		a.Code = errcode.Code(code)
		return a, err
	})
	return out, dbErr(ctx, err, "list deliveries")
}

// dbErr codes a database failure without its message, which may quote a
// value.
func dbErr(ctx context.Context, err error, what string) error {
	if err == nil {
		return nil
	}
	return errcode.Redact(ctx, err, "webhook: "+what)
}
