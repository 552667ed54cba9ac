package pipeline

import (
	"context"
	"log/slog"
	"sort"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/errcode"
)

// Scheduler fires tasks. Any number may run across the fleet; one leads at a
// time, through a lease row (pipe.scheduler_leader) it acquires or renews
// every Renew, and only the leader fires. While leading it ticks every Tick
// and, with nothing due, reads no store: watermarks are held in memory. Each
// occurrence fires in one statement that moves the task's watermark and
// inserts its jobs together, so neither a crash nor a second scheduler can
// fire an occurrence twice.
type Scheduler struct {
	cfg   SchedulerConfig
	pool  *pgxpool.Pool
	log   *slog.Logger
	names []string

	// Owned by the loop goroutine.
	leaseUntil time.Time
	states     map[string]*taskState

	leading atomic.Bool
	started atomic.Bool
	stopped atomic.Bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// taskState is a leader's in-memory view of one task.
type taskState struct {
	task      *Task
	mark      time.Time // the watermark as the store holds it
	due       time.Time // the first occurrence after mark
	paused    bool
	holdUntil time.Time // after a failed fire, the next try
}

func (st *taskState) setMark(mark time.Time) {
	st.mark, st.due = mark, st.task.Next(mark)
}

// NewScheduler answers a scheduler over pool. It does nothing until Start.
func NewScheduler(pool *pgxpool.Pool, cfg SchedulerConfig) (*Scheduler, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Scheduler{cfg: cfg, pool: pool, log: cfg.Logger.With("scheduler", cfg.ID), done: make(chan struct{})}
	for _, t := range cfg.Tasks {
		s.names = append(s.names, t.name)
	}
	sort.Strings(s.names)
	return s, nil
}

// ID answers the scheduler's id.
func (s *Scheduler) ID() string { return s.cfg.ID }

// Leading reports whether the scheduler holds the lease and fires.
func (s *Scheduler) Leading() bool { return s.leading.Load() }

// Start begins competing for the lease. It returns at once; the work happens
// in a goroutine until Stop.
func (s *Scheduler) Start(ctx context.Context) error {
	if !s.started.CompareAndSwap(false, true) {
		return errcode.New(errcode.Invariant, "scheduler %s: already started", s.cfg.ID).WithFix("start a scheduler once")
	}
	loopCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = cancel
	go s.loop(loopCtx)
	s.log.Info("tasks.scheduler.started", "tasks", s.names)
	return nil
}

// Stop ends the loop, waits for a fire in flight, and releases the lease so
// another scheduler leads at its next renewal rather than after the TTL. If
// ctx ends first, ctx's error is answered and the lease lapses by itself.
func (s *Scheduler) Stop(ctx context.Context) error {
	if !s.started.Load() || !s.stopped.CompareAndSwap(false, true) {
		return nil
	}
	s.cancel()
	select {
	case <-s.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if _, err := s.pool.Exec(ctx, sqlSchedulerRelease, s.cfg.ID); err != nil {
		return taskStoreErr("(scheduler)", "release the lease", err)
	}
	if s.leading.Swap(false) {
		s.log.Info("tasks.leader.released")
	}
	s.log.Info("tasks.scheduler.stopped")
	return nil
}

// abandon ends the loop without releasing the lease, as a killed process
// would; tests use it to prove a takeover after the TTL.
func (s *Scheduler) abandon() {
	if s.started.Load() && s.stopped.CompareAndSwap(false, true) {
		s.cancel()
		<-s.done
		s.leading.Store(false)
	}
}

// loop renews the lease every Renew and, while leading, ticks every Tick.
func (s *Scheduler) loop(ctx context.Context) {
	defer close(s.done)
	var renewAt time.Time
	for {
		now := s.cfg.Clock.Now()
		if !now.Before(renewAt) {
			s.renew(ctx, now)
			renewAt = now.Add(s.cfg.Renew)
		}
		wait := renewAt.Sub(now)
		if s.leading.Load() {
			s.tick(ctx, now)
			wait = min(wait, s.cfg.Tick)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.cfg.Clock.After(wait):
		}
	}
}
