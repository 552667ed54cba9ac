package pipeline

import "time"

// claimDoubtWindow is how long after a claim's answer was lost the worker
// keeps looking for the runs it gave, and claimDoubtEvery how often. A
// claim cut off from its client runs on in the server until it would
// answer, and commits then: the first look, 20 ms after the loss, can come
// before that commit and find nothing (a CI run's bench: 9 runs of 3,531
// waited out their lease and ran a second attempt).
const (
	claimDoubtWindow = 10 * time.Second
	claimDoubtEvery  = 100 * time.Millisecond
)

// claimDoubt is when the worker looks for runs a lost claim gave it: at the
// next pass after a loss, then at most every claimDoubtEvery until
// claimDoubtWindow has passed since the last loss.
type claimDoubt struct {
	until time.Time // the window's end; zero: no claim in doubt
	next  time.Time // the next look
}

// lost records a claim whose answer was lost at now: look at the next pass.
func (d *claimDoubt) lost(now time.Time) {
	d.until, d.next = now.Add(claimDoubtWindow), now
}

// due reports whether the pass at now looks first.
func (d *claimDoubt) due(now time.Time) bool {
	if d.until.IsZero() {
		return false
	}
	if now.After(d.until) {
		d.until = time.Time{}
		return false
	}
	return !now.Before(d.next)
}

// looked records a look at now.
func (d *claimDoubt) looked(now time.Time) { d.next = now.Add(claimDoubtEvery) }
