package pipeline

import (
	"slices"
	"strings"
)

// State is where a run is in its life: the state column of its pipe.jobs
// row. It prints, and encodes as JSON, as its name.
type State string

// The states of a run. Ready, delayed, running and suspended are live: a
// live run holds its idempotency key. The other four are finished.
const (
	StateReady     State = "ready"     // waiting for a worker (or backing off before a retry)
	StateDelayed   State = "delayed"   // waiting for its run time
	StateRunning   State = "running"   // claimed by a worker
	StateSuspended State = "suspended" // parked by Sleep or WaitForEvent
	StateDone      State = "done"      // the body returned
	StateFailed    State = "failed"    // refused by a busy key, or exhausted without a dead letter
	StateDead      State = "dead"      // exhausted, or stopped by a terminal code: dead-lettered
	StateCancelled State = "cancelled" // cancelled by a caller
)

// AllStates answers every state, live ones first. The slice is the
// caller's.
func AllStates() []State {
	return []State{StateReady, StateDelayed, StateRunning, StateSuspended, StateDone, StateFailed, StateDead, StateCancelled}
}

// LiveStates answers the states that hold an idempotency key: ready,
// delayed, running and suspended. The slice is the caller's.
func LiveStates() []State {
	return []State{StateReady, StateDelayed, StateRunning, StateSuspended}
}

// PromotableStates answers the states [Admin.PromoteMany] moves: delayed,
// and ready backing off before a retry. The slice is the caller's.
func PromotableStates() []State { return []State{StateDelayed, StateReady} }

// Valid reports whether s is one of the eight states.
func (s State) Valid() bool { return slices.Contains(AllStates(), s) }

// Live reports whether a run in s holds its key: ready, delayed, running
// or suspended.
func (s State) Live() bool {
	switch s {
	case StateReady, StateDelayed, StateRunning, StateSuspended:
		return true
	}
	return false
}

// Finished reports whether a run in s has ended: done, failed, dead or
// cancelled.
func (s State) Finished() bool { return s.Valid() && !s.Live() }

// StepState is where a step of a run stands, as [Admin.Show] folds the
// journal.
type StepState string

// The states of a step.
const (
	StepCompleted StepState = "completed" // its result is stored
	StepStarted   StepState = "started"   // a once-step whose outcome is unknown
	StepFailed    StepState = "failed"    // its last execution failed
	StepRewound   StepState = "rewound"   // a requeue from an earlier step dropped its result
)

// stateNames answers the states as a refusal lists them.
func stateNames() string {
	names := make([]string, 0, 8)
	for _, s := range AllStates() {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}
