package pipeline

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/pipekit/pipe/errcode"
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
}

// Entry makes a task entry that enqueues job with the input built from each
// occurrence. The job's idempotency key, tenant, queue and retry attempts
// apply as they do to an enqueue: a key a live run holds is not queued again,
// so a key derived from the occurrence makes one run per occurrence, and a
// constant key makes a fire a no-op while the previous run is still live.
func Entry[In, Out any](job *Job[In, Out], input func(Occurrence) In) TaskEntry {
	if job == nil || input == nil {
		return TaskEntry{}
	}
	return TaskEntry{build: func(o Occurrence) (entryRow, error) {
		in := input(o)
		key, err := job.KeyFor(in)
		if err != nil {
			return entryRow{}, err
		}
		raw, err := json.Marshal(in)
		if err != nil {
			return entryRow{}, errcode.Wrap(err, errcode.JobInputInvalid, "task %s: job %s: the input does not encode as JSON", o.Task, job.Name()).
				WithFix("make the input type JSON-encodable")
		}
		id, err := uuid.NewV7()
		if err != nil {
			return entryRow{}, err
		}
		return entryRow{id: id, name: job.Name(), queue: job.Queue(), tenant: job.TenantFor(in),
			key: key, input: raw, attempts: int32(job.Retry().Attempts)}, nil
	}}
}
