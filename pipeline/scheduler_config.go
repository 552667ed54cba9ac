package pipeline

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// SchedulerConfig configures a [Scheduler]. Each field's comment gives its
// default.
type SchedulerConfig struct {
	// Tasks are the tasks the scheduler fires while it leads. Required: at
	// least one, each name once.
	Tasks []*Task
	// ID names this scheduler in the lease row and in logs; it must be unique
	// across the fleet. Default host-pid-random.
	ID string
	// Clock is the time occurrences are computed and waits are taken by.
	// Default the wall clock.
	Clock Clock
	// Logger receives the scheduler's events (stable names such as
	// tasks.fired). Default slog.Default().
	Logger *slog.Logger
	// LeaseTTL is how long leadership lasts without a renewal, on the
	// database clock. Default 30s.
	LeaseTTL time.Duration
	// Renew is how often the lease is acquired or renewed. Default 10s; it
	// must be shorter than LeaseTTL.
	Renew time.Duration
	// Tick is how often a leader checks whether an occurrence is due.
	// Default 1s.
	Tick time.Duration
}

// Scheduler defaults.
const (
	DefaultLeaseTTL = 30 * time.Second
	DefaultRenew    = 10 * time.Second
	DefaultTick     = time.Second
)

func (c SchedulerConfig) withDefaults() (SchedulerConfig, error) {
	faults := c.taskFaults()
	for name, d := range map[string]time.Duration{"LeaseTTL": c.LeaseTTL, "Renew": c.Renew, "Tick": c.Tick} {
		if d < 0 {
			faults = append(faults, name+" is negative")
		}
	}
	c.LeaseTTL = durationOr(c.LeaseTTL, DefaultLeaseTTL)
	c.Renew = durationOr(c.Renew, DefaultRenew)
	c.Tick = durationOr(c.Tick, DefaultTick)
	if c.Renew >= c.LeaseTTL {
		faults = append(faults, "Renew must be shorter than LeaseTTL")
	}
	if len(faults) > 0 {
		return c, errcode.New(errcode.ConfigInvalid, "scheduler: %s", strings.Join(faults, "; ")).
			WithFix("correct the named SchedulerConfig fields")
	}
	if c.ID == "" {
		c.ID = defaultSchedulerID()
	}
	if c.Clock == nil {
		c.Clock = systemClock{}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c, nil
}

func (c SchedulerConfig) taskFaults() []string {
	if len(c.Tasks) == 0 {
		return []string{"Tasks is empty"}
	}
	var out []string
	seen := map[string]bool{}
	for i, t := range c.Tasks {
		switch {
		case t == nil:
			out = append(out, fmt.Sprintf("task %d is nil", i))
		case seen[t.name]:
			out = append(out, fmt.Sprintf("two tasks are named %s", t.name))
		}
		if t != nil {
			seen[t.name] = true
		}
	}
	return out
}

func durationOr(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// defaultSchedulerID is host-pid-random: unique even for two schedulers in
// one process.
func defaultSchedulerID() string {
	host, _ := os.Hostname()
	b := make([]byte, 3)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
}
