// Package simhook lets the test kit (fixtures.CrashProof, fixtures.Simulate)
// reach inside a worker at its boundaries, by worker id. Production workers
// have no hooks: every lookup answers nil.
package simhook

import "sync"

// Hooks are the points a worker offers. Each is optional.
type Hooks struct {
	// AfterStep is called once a step's completion is journalled. Answering
	// true makes the worker abandon the attempt there, as if its process had
	// died: no settle, no more renewals, the lease left to lapse.
	AfterStep func(job, step string) bool
	// BeforePass is called before each claim pass; the pass waits for it to
	// return, so a simulation can order passes across workers.
	BeforePass func()
}

var hooks sync.Map // worker id -> *Hooks

// Set installs hooks for the worker with id.
func Set(id string, h *Hooks) { hooks.Store(id, h) }

// Clear removes the hooks of the worker with id.
func Clear(id string) { hooks.Delete(id) }

// Of answers the hooks of the worker with id, or nil.
func Of(id string) *Hooks {
	h, ok := hooks.Load(id)
	if !ok {
		return nil
	}
	return h.(*Hooks)
}
