package pipeline

import (
	"context"
	"time"
)

// Test hooks for the external tests, kept out of the public API.

// AbandonScheduler stops s as a killed process would: without releasing its
// lease.
func AbandonScheduler(s *Scheduler) { s.abandon() }

// FireTask runs one fire statement for t as holder, moving the watermark from
// prev to at.
func FireTask(ctx context.Context, db DB, holder string, t *Task, prev, at time.Time) (hit bool, inserted int, err error) {
	res, err := fireOccurrence(ctx, db, holder, t, fire{prev: prev, at: at, through: at})
	return res.hit, res.inserted, err
}

// PlanTask answers the fires t's catch-up plans at now for watermark mark,
// as (at, through) pairs.
func PlanTask(t *Task, mark, now time.Time) [][2]time.Time {
	var out [][2]time.Time
	for _, f := range t.plan(mark, now) {
		out = append(out, [2]time.Time{f.at, f.through})
	}
	return out
}
