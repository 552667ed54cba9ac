package pipeline

import "testing"

// SetQueueExact sets the caps of Queues' counts (see queueOpenPass) until
// the test ends: pass for the open runs of a state in all queues, open for
// one queue's past it, finished for one queue's failed and dead runs. The
// test must not be parallel.
func SetQueueExact(t testing.TB, pass, open, finished int64) {
	oldPass, oldOpen, oldFinished := queueOpenPass, queueOpenExact, queueFinishedExact
	queueOpenPass, queueOpenExact, queueFinishedExact = pass, open, finished
	t.Cleanup(func() { queueOpenPass, queueOpenExact, queueFinishedExact = oldPass, oldOpen, oldFinished })
}
