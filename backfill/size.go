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

// pace answers how long to wait before the next batch so that rows worked
// since start stay within rate rows a second (0: no wait).
func pace(rows int64, since time.Duration, rate float64) time.Duration {
	if rate <= 0 {
		return 0
	}
	due := time.Duration(float64(rows) / rate * float64(time.Second))
	return max(due-since, 0)
}
