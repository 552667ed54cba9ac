package backfill

import "time"

// nextSize answers the batch size after a batch of n rows (size asked) that
// took took: size scaled by target/took, by at most half or double a step
// so one slow batch (a checkpoint, a cold cache) does not swing it, within
// [lo, hi]. A short batch (the table's end) keeps the size.
func nextSize(size, n int, took, target time.Duration, lo, hi int) int {
	if n < size || took <= 0 {
		return size
	}
	f := float64(target) / float64(took)
	f = min(max(f, 0.5), 2)
	next := int(float64(size) * f)
	return min(max(next, lo), hi)
}

// smaller answers the size to retry a batch a lock or a timeout cut.
func smaller(size, lo int) int { return max(size/2, lo) }

// backoff answers the wait before the try after fails failed tries in a
// row: 100ms doubling, at most 5s.
func backoff(fails int) time.Duration {
	d := 100 * time.Millisecond
	for i := 1; i < fails && d < 5*time.Second; i++ {
		d *= 2
	}
	return min(d, 5*time.Second)
}

// pacer keeps a pass within rate rows a second over any second: each
// batch's rows are due rate-time after the later of the last batch's due
// time and the batch's own start, so time spent paused or waiting is not
// banked (a pass that waited starts again at its rate, never in a burst to
// catch up).
type pacer struct {
	rate float64
	due  time.Time
}

// wait answers how long to wait after a batch of n rows that began at
// began, at now, before the next may begin (0: no cap).
func (p *pacer) wait(n int, began, now time.Time) time.Duration {
	if p.rate <= 0 {
		return 0
	}
	if p.due.Before(began) {
		p.due = began
	}
	p.due = p.due.Add(time.Duration(float64(n) / p.rate * float64(time.Second)))
	return max(p.due.Sub(now), 0)
}

// rateCap answers the largest batch a rate allows: a quarter of a second's
// rows (at least lo), so that any one-second window holds at most a
// quarter over the rate.
func rateCap(rate float64, lo, hi int) int {
	if rate <= 0 {
		return hi
	}
	return min(max(int(rate/4), lo), hi)
}
