package pipeline

import "time"

// Clock is the scheduler's time: what "now" is and how to wait. Occurrences
// are computed from it, so a test drives a scheduler through days without
// sleeping. Timestamps the store keeps (a fire's firedAt, the lease's expiry)
// come from the database clock instead.
type Clock interface {
	// Now answers the current instant.
	Now() time.Time
	// After answers a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// systemClock is the wall clock.
type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
