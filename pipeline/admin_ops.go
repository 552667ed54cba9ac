package pipeline

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/options"
)

// RequeueOptions adjust a requeue.
type RequeueOptions struct {
	// FromStep drops that completed step and every step completed after it,
	// so they run again. Empty: completed steps replay from the journal and
	// the run resumes at the step that failed.
	FromStep string
}

// Requeue puts a finished run (done, failed, dead or cancelled) back to ready
// with a fresh attempt budget. A live run is X_JOB_NOT_REQUEUEABLE; a key
// another live run holds is X_JOB_DUPLICATE; an unknown id X_JOB_NOT_FOUND.
// A rewind is appended to the journal, never a delete. It takes at most one
// RequeueOptions; a second is X_INVARIANT.
func (a *Admin) Requeue(ctx context.Context, id string, opts ...RequeueOptions) error {
	o, err := options.One("requeue", opts)
	if err != nil {
		return err
	}
	uid, err := parseID(id)
	if err != nil {
		return err
	}
	return a.onRun(ctx, "requeue", func(tx pgx.Tx) error {
		state, err := lockRow(ctx, tx, uid)
		if err != nil {
			return err
		}
		if state.Live() {
			return errcode.New(errcode.JobNotRequeueable, "the job is %s, not finished", state).
				WithFix("only a done, failed, dead or cancelled job can be requeued; cancel it first")
		}
		if o.FromStep != "" {
			if err := rewind(ctx, tx, uid, o.FromStep); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, sqlRequeue, uid); err != nil {
			return duplicateKey(err)
		}
		if err := wakeQueueOf(ctx, tx, uid); err != nil {
			return err
		}
		return journal(ctx, tx, uid, evRequeued, "", map[string]string{"fromStep": o.FromStep})
	})
}

func rewind(ctx context.Context, tx pgx.Tx, id uuid.UUID, step string) error {
	r, err := loadReplay(ctx, tx, id)
	if err != nil {
		return err
	}
	if _, ok := r.completed[step]; !ok {
		return errcode.New(errcode.StepNotFound, "the run has no completed step of that name").
			WithFix("pick a step `pipe jobs show ID` lists as completed")
	}
	return journal(ctx, tx, id, evRewound, step, map[string]string{"fromStep": step})
}

func duplicateKey(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return errcode.New(errcode.JobDuplicate, "a live job holds the same key").
			WithFix("wait for the live job to settle, or cancel it, then requeue")
	}
	return err
}

// Cancel stops a live run (ready, delayed, running or suspended). A running
// body loses its lease at the next heartbeat and its writes are fenced out.
// A finished run is X_JOB_NOT_CANCELLABLE.
func (a *Admin) Cancel(ctx context.Context, id, reason string) error {
	uid, err := parseID(id)
	if err != nil {
		return err
	}
	return a.onRun(ctx, "cancel", func(tx pgx.Tx) error {
		state, err := lockRow(ctx, tx, uid)
		if err != nil {
			return err
		}
		if !state.Live() {
			return errcode.New(errcode.JobNotCancellable, "the job is %s: it already ended", state).
				WithFix("only a ready, delayed, running or suspended job can be cancelled")
		}
		// the run moves to today's done partition: make it if no worker or
		// maintenance pass has yet
		if _, err := EnsurePartitions(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, sqlCancel, uid); err != nil {
			return err
		}
		if state == StateRunning { // tell its worker now rather than at its next heartbeat
			if _, err := tx.Exec(ctx, `select pg_notify($1, $2)`, cancelChannel, uid.String()); err != nil {
				return err
			}
		}
		return journal(ctx, tx, uid, evCancelled, "", map[string]string{"reason": reason})
	})
}

// Promote runs a job waiting on its run_at (delayed, or ready backing off
// before a retry) now. Any other job is X_JOB_NOT_PROMOTABLE.
func (a *Admin) Promote(ctx context.Context, id string) error {
	uid, err := parseID(id)
	if err != nil {
		return err
	}
	return a.onRun(ctx, "promote", func(tx pgx.Tx) error {
		if _, err := lockRow(ctx, tx, uid); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, sqlPromote, uid)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return errcode.New(errcode.JobNotPromotable, "the job is not waiting on its run time").
				WithFix("only a delayed job, or a ready one backing off, can be promoted")
		}
		if err := wakeQueueOf(ctx, tx, uid); err != nil {
			return err
		}
		return journal(ctx, tx, uid, evPromoted, "", nil)
	})
}

// Remove deletes a job and its journal. A running job is X_JOB_NOT_REMOVABLE.
func (a *Admin) Remove(ctx context.Context, id string) error {
	uid, err := parseID(id)
	if err != nil {
		return err
	}
	return a.onRun(ctx, "remove", func(tx pgx.Tx) error {
		state, err := lockRow(ctx, tx, uid)
		if err != nil {
			return err
		}
		if state == StateRunning {
			return errcode.New(errcode.JobNotRemovable, "the job is running").
				WithFix("cancel it first, or wait for it to settle")
		}
		if _, err := tx.Exec(ctx, `delete from pipe.run_events where job_id = $1`, uid); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `delete from pipe.runs where id = $1`, uid)
		return err
	})
}

// ResolveStep settles a once-step whose outcome is unknown: ran (with the
// output it produced, as JSON) or not ran (it will run on the next attempt).
// Then `Requeue` continues the run.
func (a *Admin) ResolveStep(ctx context.Context, id, step string, ran bool, output json.RawMessage) error {
	uid, err := parseID(id)
	if err != nil {
		return err
	}
	if ran && !json.Valid(output) {
		return errcode.New(errcode.Invariant, "the output is not JSON").WithFix("pass --output with a JSON value")
	}
	return a.onRun(ctx, "resolve-step", func(tx pgx.Tx) error {
		state, err := lockRow(ctx, tx, uid)
		if err != nil {
			return err
		}
		if state == StateRunning {
			return errcode.New(errcode.JobNotRequeueable, "the job is running").WithFix("resolve a step once the run has stopped")
		}
		r, err := loadReplay(ctx, tx, uid)
		if err != nil {
			return err
		}
		if !r.started[step] {
			return errcode.New(errcode.StepNotFound, "the run has no step of that name with an unknown outcome").
				WithFix("pick a step `pipe jobs show ID` lists as started")
		}
		data := map[string]any{"ran": ran}
		if ran {
			data["output"] = output
		}
		return journal(ctx, tx, uid, evStepResolved, step, data)
	})
}
