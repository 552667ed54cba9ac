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
	// AfterPass is called as each claim pass ends, however it ends, with how
	// many runs it claimed (their bodies are already started); zero when the
	// pass had no room or failed.
	AfterPass func(claimed int)
}

var hooks sync.Map // worker id -> *Hooks

// Set installs hooks for the worker with id.
func Set(id string, h *Hooks) { hooks.Store(id, h) }

// Clear removes the hooks of the worker with id.
func Clear(id string) { hooks.Delete(id) }

// Passed reports the end of a claim pass to the AfterPass hook of the
// worker with id, if it has one.
func Passed(id string, claimed int) {
	if h := Of(id); h != nil && h.AfterPass != nil {
		h.AfterPass(claimed)
	}
}

// Of answers the hooks of the worker with id, or nil.
func Of(id string) *Hooks {
	h, ok := hooks.Load(id)
	if !ok {
		return nil
	}
	return h.(*Hooks)
}
