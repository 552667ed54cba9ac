package pipeline

import (
	"context"
	"time"
)

// tick fires every task with an occurrence due at now. With none due it
// touches no store.
func (s *Scheduler) tick(ctx context.Context, now time.Time) {
	for _, name := range s.names {
		st := s.states[name]
		if st == nil || st.paused || st.due.IsZero() || now.Before(st.due) || now.Before(st.holdUntil) {
			continue
		}
		s.catchUp(ctx, st, now)
		if ctx.Err() != nil {
			return
		}
	}
}

// catchUp runs the fires the task's catch-up mode plans at now, oldest first.
// A fire that misses (the watermark moved, the task was paused, the lease
// lapsed) reloads the task's row; one that fails waits a Renew before trying
// again.
func (s *Scheduler) catchUp(ctx context.Context, st *taskState, now time.Time) {
	fires := st.task.plan(st.mark, now)
	if len(fires) > 1 || (len(fires) == 1 && fires[0].through.After(st.due)) {
		s.log.Info("tasks.catchup", "task", st.task.name, "mode", st.task.catchUp,
			"firstMissed", st.due, "fires", len(fires))
	}
	for _, f := range fires {
		res, err := fireOccurrence(ctx, s.pool, s.cfg.ID, st.task, f)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Error("tasks.fire.failed", "task", st.task.name, "occurrence", f.at, "err", err)
			}
			st.holdUntil = now.Add(s.cfg.Renew)
			return
		}
		if !res.hit {
			s.log.Warn("tasks.fire.missed", "task", st.task.name, "occurrence", f.at)
			s.reload(ctx, st, now)
			return
		}
		st.setMark(f.through)
		s.log.Info("tasks.fired", "task", st.task.name, "occurrence", f.at, "through", f.through,
			"queued", res.inserted, "deduped", res.entries-res.inserted)
	}
}

// reload re-reads one task's watermark and pause after a missed fire.
func (s *Scheduler) reload(ctx context.Context, st *taskState, now time.Time) {
	states, err := s.load(ctx, []string{st.task.name}, now)
	if err != nil || states[st.task.name] == nil {
		if ctx.Err() == nil {
			s.log.Error("tasks.fire.failed", "task", st.task.name, "err", err)
		}
		st.holdUntil = now.Add(s.cfg.Renew)
		return
	}
	fresh := states[st.task.name]
	if fresh.mark.Equal(st.mark) && !fresh.paused {
		// The row would have fired: the lease refused it. The next renewal
		// tells whether this scheduler still leads.
		st.holdUntil = now.Add(s.cfg.Renew)
	}
	if fresh.paused && !st.paused {
		s.log.Info("tasks.paused", "task", st.task.name)
	}
	st.mark, st.due, st.paused = fresh.mark, fresh.due, fresh.paused
}
