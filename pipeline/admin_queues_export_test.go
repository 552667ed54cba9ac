package pipeline

import "testing"

// SetQueueExact sets the most runs Queues counts exactly (see
// queueOpenExact) until the test ends. The test must not be parallel.
func SetQueueExact(t testing.TB, open, finished int64) {
	oldOpen, oldFinished := queueOpenExact, queueFinishedExact
	queueOpenExact, queueFinishedExact = open, finished
	t.Cleanup(func() { queueOpenExact, queueFinishedExact = oldOpen, oldFinished })
}
