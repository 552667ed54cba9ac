package pipeline

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"
)

// DefaultQueueSlots is a served queue's slots when WorkerConfig.Queues does
// not name them.
const DefaultQueueSlots = 100

// WorkerConfig configures a [Worker]. Each field's comment gives its default.
type WorkerConfig struct {
	// Registry holds the jobs the worker runs. Required.
	Registry *Registry
	// Queues maps each queue to serve to its slots (simultaneous runs in this
	// process). Default: every queue of the registry's jobs,
	// DefaultQueueSlots each.
	Queues map[string]int
	// MaxInFlight caps simultaneous runs across every queue of this process.
	// Zero means no process cap; negative is refused.
	MaxInFlight int
	// Lease is the visibility timeout: a run whose lease is not renewed for
	// this long is offered again. Default 30s.
	Lease time.Duration
	// Heartbeat is how often held leases are renewed. Default Lease/3.
	Heartbeat time.Duration
	// PollInterval is the wait after a pass that found some work, and the
	// first idle wait. Default 250ms.
	PollInterval time.Duration
	// IdlePollMax caps the doubling idle wait. Default 2s, or 5s once the
	// LISTEN wake is proven.
	IdlePollMax time.Duration
	// FetchCooldown is the least time between the start of a claim pass that
	// claimed something and the next pass; after a pass that found nothing, a
	// wake is claimed at once. Default 2ms.
	FetchCooldown time.Duration
	// TimeoutGrace is how long a body whose job timeout fired may take to
	// unwind before its attempt is failed anyway and it is abandoned.
	// Default 1s.
	TimeoutGrace time.Duration
	// TracerProvider makes the spans of runs and steps. Default the global
	// OpenTelemetry provider (otel.GetTracerProvider()), a no-op until the
	// app installs one.
	TracerProvider trace.TracerProvider
	// Clock times job timeouts. Default the wall clock; the test kit's
	// fixtures.FrozenClock drives it (with the database clock) in tests.
	Clock Clock
	// BusyDelay is how long a run deferred by a busy concurrency cap waits
	// before it is offered again. Default 1s.
	BusyDelay time.Duration
	// ID names this worker in rows and logs; it must be unique among the
	// workers running (a claim whose answer was lost is found again by it).
	// Default host-pid-xxxx: four hex digits drawn at random once per
	// process and counted up for each worker it makes, so that workers of
	// one process never share an id, nor, but by a 1-in-65,536 chance, a
	// restarted process's workers with its predecessor's (same host name,
	// same pid: a container's pid 1).
	ID string
	// Logger receives the worker's events (stable names such as
	// jobs.lease.lost). Default slog.Default().
	Logger *slog.Logger
	// WatchWrites watches each run's body for enqueues in a loop
	// ([WatchWrites]): the NPlusOneAt-th single Enqueue of one job in one
	// run logs jobs.write.n_plus_one with X_N_PLUS_ONE_WRITE. For
	// development: `pipe dev` sets it. Default off.
	WatchWrites bool
	// NoWake turns off the LISTEN wake: the worker only polls.
	NoWake bool
	// ListenConfig is where the LISTEN wake connects. Default: the pool's
	// own connection settings. Behind a transaction pooler (PgBouncer with
	// pool_mode = transaction), where a LISTEN hears nothing, give a direct
	// or session-pooled server's: without one the worker polls, and says so
	// when it starts.
	ListenConfig *pgx.ConnConfig
	// RatePerTenant caps body starts per tenant in this process (per
	// process, not fleet-wide: see SpendBudget for a shared budget). A run
	// over it is deferred with its attempt uncounted. Nil: no cap.
	RatePerTenant *RateLimit
	// MaxInFlightPerTenant caps the runs of one tenant running at once in
	// this process, so that one tenant's backlog cannot hold every slot: a
	// run over it is deferred (BusyDelay) with its attempt uncounted. Runs
	// with no tenant are not capped. Zero: no cap; negative is refused.
	MaxInFlightPerTenant int

	idleMaxSet bool
}

func (c WorkerConfig) withDefaults() (WorkerConfig, error) {
	var faults []string
	if c.Registry == nil {
		faults = append(faults, "Registry is nil")
	}
	if r := c.RatePerTenant; r != nil && (r.Starts < 1 || r.Window <= 0) {
		faults = append(faults, "RatePerTenant needs Starts of 1 or more and a positive Window")
	}
	if c.MaxInFlight < 0 {
		faults = append(faults, "MaxInFlight is negative")
	}
	if c.MaxInFlightPerTenant < 0 {
		faults = append(faults, "MaxInFlightPerTenant is negative")
	}
	for q, n := range c.Queues {
		if n < 1 {
			faults = append(faults, fmt.Sprintf("queue %s has %d slots (need 1 or more)", q, n))
		}
	}
	for name, d := range map[string]time.Duration{"Lease": c.Lease, "Heartbeat": c.Heartbeat, "PollInterval": c.PollInterval,
		"IdlePollMax": c.IdlePollMax, "FetchCooldown": c.FetchCooldown, "TimeoutGrace": c.TimeoutGrace, "BusyDelay": c.BusyDelay} {
		if d < 0 {
			faults = append(faults, name+" is negative")
		}
	}
	if len(faults) > 0 {
		return c, errcode.New(errcode.ConfigInvalid, "worker: %v", faults).WithFix("correct the named WorkerConfig fields")
	}
	if len(c.Queues) == 0 {
		c.Queues = map[string]int{}
		for _, q := range c.Registry.Queues() {
			c.Queues[q] = DefaultQueueSlots
		}
	}
	c.Lease = orDefault(c.Lease, 30*time.Second)
	c.Heartbeat = orDefault(c.Heartbeat, c.Lease/3)
	c.PollInterval = orDefault(c.PollInterval, 250*time.Millisecond)
	c.idleMaxSet = c.IdlePollMax != 0
	c.IdlePollMax = orDefault(c.IdlePollMax, 2*time.Second)
	c.FetchCooldown = orDefault(c.FetchCooldown, 2*time.Millisecond)
	c.TimeoutGrace = orDefault(c.TimeoutGrace, time.Second)
	c.BusyDelay = orDefault(c.BusyDelay, time.Second)
	if c.ID == "" {
		c.ID = defaultWorkerID()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.TracerProvider == nil {
		c.TracerProvider = otel.GetTracerProvider()
	}
	if c.Clock == nil {
		c.Clock = systemClock{}
	}
	return c, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
