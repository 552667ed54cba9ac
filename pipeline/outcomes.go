package pipeline

import "sync"

// outcomeCounts counts settled attempts per queue and outcome, for metrics
// such as jobs_total{queue,outcome}.
type outcomeCounts struct {
	mu   sync.Mutex
	n    map[string]map[string]int64
	lost map[string]int64 // leases lost, by queue
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

// leaseLost counts one lease lost of a run in queue.
func (w *Worker) leaseLost(queue string) {
	w.stats.LeasesLost.Add(1)
	w.outcomes.mu.Lock()
	defer w.outcomes.mu.Unlock()
	if w.outcomes.lost == nil {
		w.outcomes.lost = map[string]int64{}
	}
	w.outcomes.lost[queue]++
}

// LeasesLost answers the leases this worker lost since it started, by queue:
// runs no renewal landed for during a whole lease window. The answer is a
// copy.
func (w *Worker) LeasesLost() map[string]int64 {
	w.outcomes.mu.Lock()
	defer w.outcomes.mu.Unlock()
	out := make(map[string]int64, len(w.outcomes.lost))
	for q, n := range w.outcomes.lost {
		out[q] = n
	}
	return out
}

// Outcomes answers the attempts this worker settled since it started, by
// queue and outcome (completed, retried, dead_lettered, failed, interrupted,
// suspended, deferred, cancelled). The answer is a copy.
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
