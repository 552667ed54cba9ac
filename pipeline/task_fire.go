package pipeline

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
)

var sqlTaskFire = mustQuery("task_fire")

// fireResult is what one fire did.
type fireResult struct {
	hit      bool // the watermark moved: the occurrence is fired
	inserted int  // job rows written; the rest deduped onto live runs
	entries  int
}

// fireOccurrence runs f for t as leader holder in one transaction: it moves
// the watermark from f.prev to f.through, then enqueues the occurrence's
// jobs through the enqueue's own path — or, if the watermark moved on, the
// task is paused or holder's lease lapsed, does nothing.
func fireOccurrence(ctx context.Context, db DB, holder string, t *Task, f fire) (fireResult, error) {
	occ := Occurrence{Task: t.name, At: f.at.In(t.loc), Through: f.through.In(t.loc)}
	res := fireResult{entries: len(t.entries)}
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, sqlTaskFire, t.name, holder, f.prev, f.through, f.at).Scan(&res.hit)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		res.inserted, err = t.enqueueEntries(ctx, tx, occ)
		return err
	})
	if err != nil {
		return fireResult{}, taskStoreErr(t.name, "fire", err)
	}
	return res, nil
}

// taskStoreErr wraps a store error once, naming the task and the statement,
// never quoting the driver's message; an error already coded (an entry's
// refused input, the enqueue's own) keeps its code.
func taskStoreErr(task, what string, err error) error {
	return errcode.Postgres(context.Background(), err, "task "+task+": "+what)
}

// enqueueEntries enqueues each of t's entries for occ in tx and answers how
// many runs it queued; the rest deduped onto live runs.
func (t *Task) enqueueEntries(ctx context.Context, tx pgx.Tx, occ Occurrence) (int, error) {
	res, err := t.enqueueRuns(ctx, tx, occ)
	queued := 0
	for _, r := range res {
		if !r.Deduped {
			queued++
		}
	}
	return queued, err
}

// enqueueRuns enqueues each of t's entries for occ in tx and answers each
// entry's run, in entry order.
func (t *Task) enqueueRuns(ctx context.Context, tx pgx.Tx, occ Occurrence) ([]EnqueueResult, error) {
	out := make([]EnqueueResult, 0, len(t.entries))
	for _, e := range t.entries {
		r, err := e.enqueue(ctx, tx, occ)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}
