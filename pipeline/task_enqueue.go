package pipeline

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Enqueue queues the task's entries now, for an occurrence at at, as the
// scheduler's fire would — in one transaction (the caller's, when db is
// one), each entry's input built from the occurrence — without moving the
// task's watermark: its schedule goes on as before. An entry whose run is
// still live for that occurrence is deduped. It answers how many runs it
// queued. `pipe tasks run` calls it.
func (t *Task) Enqueue(ctx context.Context, db DB, at time.Time) (int, error) {
	res, err := t.EnqueueRuns(ctx, db, at)
	queued := 0
	for _, r := range res {
		if !r.Deduped {
			queued++
		}
	}
	return queued, err
}

// EnqueueRuns is [Task.Enqueue] answering each entry's run, in entry
// order: a new one, or (Deduped) the live run of the entry's key. `pipe
// tasks run --wait` works them.
func (t *Task) EnqueueRuns(ctx context.Context, db DB, at time.Time) ([]EnqueueResult, error) {
	occ := Occurrence{Task: t.name, At: at.In(t.loc), Through: at.In(t.loc)}
	var res []EnqueueResult
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) (err error) {
		res, err = t.enqueueRuns(ctx, tx, occ)
		return err
	})
	if err != nil {
		return nil, taskStoreErr(t.name, "enqueue", err)
	}
	return res, nil
}

// Jobs answers the jobs of the task's entries, each once: what a worker
// that runs the task's runs registers.
func (t *Task) Jobs() []Registrable {
	var out []Registrable
	seen := map[string]bool{}
	for _, e := range t.entries {
		if e.job != nil && !seen[e.job.Name()] {
			seen[e.job.Name()] = true
			out = append(out, e.job)
		}
	}
	return out
}
