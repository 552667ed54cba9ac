package pipeline

import "time"

// fire is one occurrence dispatch: the watermark moves from prev to through
// and the jobs are stamped at.
type fire struct {
	prev, at, through time.Time
}

// plan answers the fires due at now for a task whose watermark is mark,
// oldest first, as its catch-up mode decides. Occurrences it passes over are
// skipped by the first fire's move of the watermark.
func (t *Task) plan(mark, now time.Time) []fire {
	first := t.Next(mark)
	if first.IsZero() || first.After(now) {
		return nil
	}
	n := 1
	if t.catchUp == CatchUpRunAll {
		n = t.maxCatchUp
	}
	latest := t.latest(mark, now, n)
	last := latest[len(latest)-1]
	switch t.catchUp {
	case CatchUpRunOnce:
		return []fire{{prev: mark, at: first, through: last}}
	case CatchUpRunAll:
		out := make([]fire, len(latest))
		prev := mark
		for i, at := range latest {
			out[i], prev = fire{prev: prev, at: at, through: at}, at
		}
		return out
	}
	return []fire{{prev: mark, at: last, through: last}}
}

// latest answers up to n of the latest occurrences in (mark, now], oldest
// first; there is at least one. It reads windows ending at now that grow
// fourfold, so a long downtime costs about as much as the window holding the
// n it keeps, not one step per missed occurrence.
func (t *Task) latest(mark, now time.Time, n int) []time.Time {
	for w := time.Hour; ; w *= 4 {
		start := now.Add(-w)
		if !start.After(mark) {
			start = mark
		}
		got := t.between(start, now, n)
		if len(got) >= n || start.Equal(mark) {
			return got
		}
	}
}

// between answers the last n occurrences in (from, to], oldest first.
func (t *Task) between(from, to time.Time, n int) []time.Time {
	var out []time.Time
	for at := t.Next(from); !at.IsZero() && !at.After(to); at = t.Next(at) {
		out = append(out, at)
		if len(out) > n {
			out = out[1:]
		}
	}
	return out
}
