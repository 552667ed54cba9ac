package pipeline

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Occurrence is what an entry is told about the fire it builds an input for.
type Occurrence struct {
	// Task is the task's name.
	Task string
	// At is the occurrence the fire is stamped with, in the task's zone.
	At time.Time
	// Through is the latest occurrence the fire accounts for: At itself,
	// except in a run-once catch-up, where At is the first missed
	// occurrence and Through the last.
	Through time.Time
}

// TaskEntry is one job an occurrence enqueues. Make it with [Entry].
type TaskEntry struct {
	// enqueue writes the entry's run for o through tx and answers it
	// (Deduped: onto a live run).
	enqueue func(ctx context.Context, tx pgx.Tx, o Occurrence) (EnqueueResult, error)
	// job is the entry's job, for a worker that runs the task's runs.
	job Registrable
}

// Entry makes a task entry that enqueues job with the input built from each
// occurrence. The run is written by the enqueue's own path (idempotency key,
// tenant, concurrency key, queue, attempts, the journal's enqueued
// transition, the trace parent), in the fire's transaction, and a key a live
// run holds is not queued again: a key derived from the occurrence makes one
// run per occurrence, and a constant key makes a fire a no-op while the
// previous run is still live.
func Entry[In, Out any](job *Job[In, Out], input func(Occurrence) In) TaskEntry {
	if job == nil || input == nil {
		return TaskEntry{}
	}
	return TaskEntry{job: job, enqueue: func(ctx context.Context, tx pgx.Tx, o Occurrence) (EnqueueResult, error) {
		// A fire is rare and its run is due now: it wakes the queue
		// whatever the enqueue throttle says.
		res, err := job.enqueue(ctx, tx, []In{input(o)}, EnqueueOptions{}, alwaysWake)
		if err != nil {
			return EnqueueResult{}, err
		}
		return res[0], nil
	}}
}
