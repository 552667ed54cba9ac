package pipeline

import (
	"context"
	"slices"
	"time"
)

var (
	sqlSchedulerLease   = mustQuery("scheduler_lease")
	sqlSchedulerRelease = mustQuery("scheduler_release")
	sqlSchedulerArm     = mustQuery("scheduler_arm")
)

// renew acquires or renews the lease and follows what it answered.
func (s *Scheduler) renew(ctx context.Context, now time.Time) {
	var held bool
	var paused []string
	err := s.pool.QueryRow(ctx, sqlSchedulerLease, s.cfg.ID, s.cfg.LeaseTTL, s.names).Scan(&held, &paused)
	switch {
	case err != nil:
		if ctx.Err() == nil {
			s.log.Warn("tasks.lease.failed", "err", taskStoreErr("(scheduler)", "renew the lease", err))
		}
		if s.leading.Load() && !now.Before(s.leaseUntil) {
			s.lose()
		}
	case !held:
		if s.leading.Load() {
			s.lose()
		}
	case s.leading.Load():
		s.leaseUntil = now.Add(s.cfg.LeaseTTL)
		s.applyPaused(paused)
	default:
		s.acquire(ctx, now)
	}
}

// acquire loads every task's watermark, arming those that have none at now,
// and starts leading. On a failure it stays a follower holding the lease, and
// the next renewal tries again.
func (s *Scheduler) acquire(ctx context.Context, now time.Time) {
	states, err := s.load(ctx, s.names, now)
	if err != nil {
		s.log.Warn("tasks.lease.failed", "err", err)
		return
	}
	s.states, s.leaseUntil = states, now.Add(s.cfg.LeaseTTL)
	s.leading.Store(true)
	s.log.Info("tasks.leader.acquired", "tasks", len(states))
}

func (s *Scheduler) lose() {
	s.leading.Store(false)
	s.states = nil
	s.log.Warn("tasks.leader.lost")
}

// load reads the watermarks of the named tasks, arming at now those with
// none: an armed task fires nothing at or before now.
func (s *Scheduler) load(ctx context.Context, names []string, now time.Time) (map[string]*taskState, error) {
	byName := map[string]*Task{}
	for _, t := range s.cfg.Tasks {
		byName[t.name] = t
	}
	rows, err := s.pool.Query(ctx, sqlSchedulerArm, names, now.Truncate(time.Second))
	if err != nil {
		return nil, taskStoreErr("(scheduler)", "load watermarks", err)
	}
	defer rows.Close()
	out := map[string]*taskState{}
	for rows.Next() {
		var name string
		var mark time.Time
		var paused, armed bool
		if err := rows.Scan(&name, &mark, &paused, &armed); err != nil {
			return nil, taskStoreErr(name, "load watermark", err)
		}
		st := &taskState{task: byName[name], paused: paused}
		st.setMark(mark)
		out[name] = st
		if armed {
			s.log.Info("tasks.armed", "task", name, "watermark", mark, "next", st.due)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, taskStoreErr("(scheduler)", "load watermarks", err)
	}
	return out, nil
}

// applyPaused follows pauses and resumes an operator made, as the renewal
// read them. A resumed task's catch-up decides what it missed.
func (s *Scheduler) applyPaused(paused []string) {
	for name, st := range s.states {
		now := slices.Contains(paused, name)
		if now == st.paused {
			continue
		}
		st.paused = now
		if now {
			s.log.Info("tasks.paused", "task", name)
		} else {
			s.log.Info("tasks.resumed", "task", name)
		}
	}
}
