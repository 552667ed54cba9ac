package pipeline

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/google/uuid"
)

// replay is a run's journal folded into what a replaying body needs: the
// stored output of every completed step, and the once-steps that started
// without an outcome.
type replay struct {
	completed map[string]json.RawMessage
	order     []string
	started   map[string]bool
	waits     map[string]json.RawMessage // WaitForEvent steps begun and not yet answered
}

// newReplay answers an empty replay. Its maps are made on their first
// write: most runs have no steps, and a run's replay is made for each.
func newReplay() *replay { return &replay{} }

// markStarted records a once-step started without an outcome.
func (r *replay) markStarted(step string) {
	if r.started == nil {
		r.started = map[string]bool{}
	}
	r.started[step] = true
}

// journalEvent is one row of the journal as the fold reads it.
type journalEvent struct {
	kind string
	step string
	data json.RawMessage
}

// apply folds one event in. A rewind drops the named step and every step
// completed after it; the journal itself is never edited.
func (r *replay) apply(e journalEvent) {
	switch e.kind {
	case evStepStarted:
		r.markStarted(e.step)
	case evStepCompleted, evSlept:
		r.complete(e.step, e.data)
	case evWaitStarted:
		if r.waits == nil {
			r.waits = map[string]json.RawMessage{}
		}
		r.waits[e.step] = e.data
	case evStepResolved:
		r.resolve(e)
	case evRewound:
		var d struct {
			FromStep string `json:"fromStep"`
		}
		if json.Unmarshal(e.data, &d) == nil {
			r.rewind(d.FromStep)
		}
	}
}

func (r *replay) complete(step string, data json.RawMessage) {
	delete(r.started, step)
	delete(r.waits, step)
	if _, ok := r.completed[step]; !ok {
		r.order = append(r.order, step)
	}
	if r.completed == nil {
		r.completed = map[string]json.RawMessage{}
	}
	r.completed[step] = data
}

func (r *replay) resolve(e journalEvent) {
	var d struct {
		Ran    bool            `json:"ran"`
		Output json.RawMessage `json:"output"`
	}
	if json.Unmarshal(e.data, &d) != nil {
		return
	}
	if d.Ran {
		r.complete(e.step, d.Output)
		return
	}
	delete(r.started, e.step)
}

func (r *replay) rewind(from string) {
	i := slices.Index(r.order, from)
	if i < 0 {
		delete(r.started, from)
		return
	}
	for _, name := range r.order[i:] {
		delete(r.completed, name)
		delete(r.started, name)
		delete(r.waits, name)
	}
	r.order = r.order[:i]
}

// loadReplay reads the step events of one run, open or finished, in journal
// order.
func loadReplay(ctx context.Context, db DB, id uuid.UUID) (*replay, error) {
	return readReplay(ctx, db, sqlJournalSteps, id)
}

// loadOpenReplay reads the step events of one open run, in journal order,
// from the open runs' journal alone: the worker's replay.
func loadOpenReplay(ctx context.Context, db DB, id uuid.UUID) (*replay, error) {
	return readReplay(ctx, db, sqlOpenJournal, id)
}

func readReplay(ctx context.Context, db DB, sql string, id uuid.UUID) (*replay, error) {
	rows, err := db.Query(ctx, sql, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	r := newReplay()
	for rows.Next() {
		var e journalEvent
		var step *string
		if err := rows.Scan(&e.kind, &step, &e.data); err != nil {
			return nil, err
		}
		if step != nil {
			e.step = *step
		}
		r.apply(e)
	}
	return r, rows.Err()
}

// The journal's event kinds.
const (
	evEnqueued      = "enqueued"
	evClaimed       = "claimed"
	evStepStarted   = "step.started"
	evStepCompleted = "step.completed"
	evStepFailed    = "step.failed"
	evStepResolved  = "step.resolved"
	evCompleted     = "completed"
	evAttemptFailed = "attempt.failed"
	evDead          = "dead"
	evFailed        = "failed"
	evInterrupted   = "interrupted"
	evLeaseLapsed   = "lease.lapsed"
	evRequeued      = "requeued"
	evRewound       = "rewound"
	evCancelled     = "cancelled"
	evPromoted      = "promoted"
	evSlept         = "slept"
	evWaitStarted   = "wait.started"
	evSuspended     = "suspended"
	evRefused       = "refused"
	evDeferredBusy  = "deferred.busy"
	evDeferredRate  = "deferred.rate"
)
