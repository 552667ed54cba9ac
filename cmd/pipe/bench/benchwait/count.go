// Package benchwait is how a bench waits for its work to be done: it polls
// a count until it reaches its target, and gives up when the count stops
// moving rather than after a fixed time, so that a slow machine still
// finishes and a stuck one says where it stuck.
package benchwait

import (
	"context"
	"fmt"
	"time"
)

// Count polls count every 5 ms (as River's bench does) until it reaches
// target. It fails when the count has not moved for stall; what names the
// count in the error ("runs completed").
func Count(ctx context.Context, what string, count func() int64, target int64, stall time.Duration) error {
	last, moved := count(), time.Now()
	for last < target {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
		if c := count(); c != last {
			last, moved = c, time.Now()
		} else if time.Since(moved) > stall {
			return fmt.Errorf("stalled at %d of %d %s for %v", last, target, what, stall)
		}
	}
	return nil
}
