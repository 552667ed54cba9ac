package pipeline

import "sync"

// outcomeCounts counts settled attempts per queue and outcome, for metrics
// such as jobs_total{queue,outcome}.
type outcomeCounts struct {
	mu sync.Mutex
	n  map[string]map[string]int64
}

// outcome counts one settled attempt of a run in queue.
func (w *Worker) outcome(queue, outcome string) {
	w.outcomes.mu.Lock()
	defer w.outcomes.mu.Unlock()
	if w.outcomes.n == nil {
		w.outcomes.n = map[string]map[string]int64{}
	}
	if w.outcomes.n[queue] == nil {
		w.outcomes.n[queue] = map[string]int64{}
	}
	w.outcomes.n[queue][outcome]++
}

// Outcomes answers the attempts this worker settled since it started, by
// queue and outcome (completed, retried, dead_lettered, failed, interrupted,
// suspended, deferred). The answer is a copy.
func (w *Worker) Outcomes() map[string]map[string]int64 {
	w.outcomes.mu.Lock()
	defer w.outcomes.mu.Unlock()
	out := make(map[string]map[string]int64, len(w.outcomes.n))
	for q, byOutcome := range w.outcomes.n {
		out[q] = make(map[string]int64, len(byOutcome))
		for o, n := range byOutcome {
			out[q][o] = n
		}
	}
	return out
}
