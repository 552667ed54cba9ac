package pipeline

import (
	"time"

	"github.com/google/uuid"
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
	build func(Occurrence) (entryRow, error)
}

// entryRow is one job row a fire inserts.
type entryRow struct {
	id                  uuid.UUID
	name, queue, tenant string
	key                 string
	input               []byte
	attempts            int32
	ckey                *string // nil: the job has no concurrency cap
}

// Entry makes a task entry that enqueues job with the input built from each
// occurrence. The row is prepared by the enqueue's own code (idempotency key,
// tenant, concurrency key, queue, attempts), and a key a live run holds is
// not queued again: a key derived from the occurrence makes one run per
// occurrence, and a constant key makes a fire a no-op while the previous run
// is still live.
func Entry[In, Out any](job *Job[In, Out], input func(Occurrence) In) TaskEntry {
	if job == nil || input == nil {
		return TaskEntry{}
	}
	return TaskEntry{build: func(o Occurrence) (entryRow, error) {
		// The enqueue's own preparation: key, JSON input, tenant and
		// concurrency key are checked and derived exactly as Enqueue does.
		r, err := job.prepare([]In{input(o)}, EnqueueOptions{})
		if err != nil {
			return entryRow{}, err
		}
		return entryRow{id: r.ids[0], name: job.spec.name, queue: job.spec.queue, tenant: r.tenants[0],
			key: r.keys[0], input: r.inputs[0], attempts: int32(job.spec.maxAttempts()), ckey: r.ckeys[0]}, nil
	}}
}
