package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
)

var (
	sqlFenceTx         = mustQuery("fence_tx")
	sqlFenceTxStatus   = mustQuery("fence_tx_status")
	sqlFenceTxProgress = mustQuery("fence_tx_progress")
	sqlStatus          = mustQuery("status")
)

// FencedTx runs fn in a transaction that commits only while this attempt
// still holds its run: after fn, in the same transaction, the run's row is
// locked on this attempt's claim, so a worker whose lease lapsed (or whose
// run was cancelled) commits nothing and gets X_JOB_LEASE_LOST. Nothing is
// journalled. It is for bodies whose database effects are too many to be
// steps — a consumer's batches, one transaction each, for as long as the run
// lives — and that keep their own position in the same transaction, so that
// a replay needs no journal.
//
// When fn answers a non-nil status it is stored, as JSON, as the run's
// status document in the same transaction and stamped with the database
// clock; [Admin.Show] reports both ([RunDetail].Status, StatusAt). A nil
// status keeps the stored one. The document is replaced whole at each write.
//
// Once ctx is cancelled FencedTx refuses with X_ABORTED before it begins.
// Outside a body it is X_INVARIANT.
func FencedTx(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) (status any, err error)) error {
	rs := runFrom(ctx)
	if rs == nil {
		return errcode.New(errcode.Invariant, "fenced transaction: called outside a job body").
			WithFix("call FencedTx with the context the worker passed to the body")
	}
	if cause := context.Cause(ctx); cause != nil {
		return errcode.Wrap(cause, errcode.Aborted, "job %s: a fenced transaction refused to begin: the run was cancelled (%s)", rs.spec.name, errcode.CodeOf(cause)).
			WithFix("none: the run is retried or interrupted as its cancellation says")
	}
	var fnErr error
	var reset bool
	err := pgx.BeginTxFunc(ctx, rs.w.pool, rs.w.fencedTxOptions, func(tx pgx.Tx) error {
		var status any
		if status, fnErr = fn(withinTransaction(ctx), tx); fnErr != nil {
			return txFailure(ctx, tx, fnErr, "job "+rs.spec.name+": fenced transaction")
		}
		var err error
		reset, err = rs.fence(ctx, tx, status)
		return err
	})
	if err != nil && fnErr == nil {
		return errcode.Postgres(ctx, err, "job "+rs.spec.name+": fenced transaction")
	}
	if err == nil && reset {
		rs.progressed()
	}
	return err
}

// fence locks the run's row on this attempt's claim inside tx, storing status
// when there is one. An attempt's first fence on a run that earlier attempts
// failed or lapsed on gives those attempts back: a long-lived run that
// commits its work is never buried by crashes spread over its life, while
// one that crashes before committing anything is counted as usual.
func (rs *runState) fence(ctx context.Context, tx pgx.Tx, status any) (reset bool, err error) {
	var raw []byte
	if status != nil {
		var err error
		if raw, err = json.Marshal(status); err != nil {
			return false, errcode.Wrap(err, errcode.Invariant, "job %s: the status document does not encode as JSON", rs.spec.name).
				WithFix("answer a JSON-encodable status")
		}
	}
	resets := rs.resetsAttempts()
	sql, args := sqlFenceTx, []any{rs.row.id, rs.row.claims}
	switch {
	case resets:
		sql, args = sqlFenceTxProgress, append(args, raw)
	case raw != nil:
		sql, args = sqlFenceTxStatus, append(args, raw)
	}
	var id uuid.UUID
	err = tx.QueryRow(ctx, sql, args...).Scan(&id)
	if err == pgx.ErrNoRows {
		return false, errcode.New(errcode.JobLeaseLost, "job %s: a fenced transaction was rolled back: this attempt no longer holds the run", rs.spec.name).
			WithFix("none: the lease lapsed or the run was cancelled; nothing of the transaction landed")
	}
	if err != nil {
		return false, errcode.Postgres(ctx, err, "job "+rs.spec.name+": fence")
	}
	return resets, nil
}

// resetsAttempts answers whether this attempt's next fence gives back the
// attempts earlier ones spent.
func (rs *runState) resetsAttempts() bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.row.attempt > 1 && !rs.spec.compensates
}

// progressed records that a fence gave back the run's spent attempts: the
// settle counts this attempt as the first.
func (rs *runState) progressed() {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.row.attempt = 1
}

// StoredStatus decodes the run's status document, as the last [FencedTx] that
// reported one left it (an earlier attempt's included), into dst. It answers
// false, leaving dst alone, when the run has none. Outside a body it is
// X_INVARIANT.
func StoredStatus(ctx context.Context, dst any) (bool, error) {
	rs := runFrom(ctx)
	if rs == nil {
		return false, errcode.New(errcode.Invariant, "stored status: called outside a job body").
			WithFix("call StoredStatus with the context the worker passed to the body")
	}
	raw, _, err := readStatus(ctx, rs.w.pool, rs.row.id)
	if err != nil || raw == nil {
		return false, err
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return false, errcode.Wrap(err, errcode.Invariant, "job %s: the stored status does not decode", rs.spec.name).
			WithFix("decode the status into the type it was written from")
	}
	return true, nil
}

func readStatus(ctx context.Context, db DB, id uuid.UUID) (json.RawMessage, *time.Time, error) {
	var raw json.RawMessage
	var at *time.Time
	err := db.QueryRow(ctx, sqlStatus, id).Scan(&raw, &at)
	if err == pgx.ErrNoRows {
		return nil, nil, notFound()
	}
	if err != nil {
		return nil, nil, adminErr("status", err)
	}
	return raw, at, nil
}
