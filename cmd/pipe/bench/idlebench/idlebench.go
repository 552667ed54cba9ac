// Package idlebench is `pipe bench idle`: what each pipe component costs
// the database and the machine when there is no work — transactions and CPU
// a minute for an idle worker, scheduler, consumer, outbox relay and
// console, each alone on a fresh database — and how fast an idle, backed-off
// outbox relay picks up a staged message when its wake fires.
package idlebench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Targets the figures stand beside (issue 28, the reference
// specification's 12–30 transactions a minute for an idle component).
const (
	TargetTxPerMin = 30
	TargetPickupMs = 50
)

// Components are the components measured, in order.
var Components = []string{"worker", "scheduler", "consumer", "relay", "console"}

// Options are the bench's settings.
type Options struct {
	// Components to measure; default all of Components.
	Components []string
	// Warmup is how long a component runs before its window: its wake
	// proven, its idle poll at its ceiling.
	Warmup time.Duration
	// Window is how long each component is measured idle.
	Window time.Duration
	// Samples is how many staged messages time the relay's pickup.
	Samples int
	// Logger hears the components' warnings.
	Logger *slog.Logger
}

// Figure is one component's idle cost.
type Figure struct {
	Component string `json:"component"`
	// TxPerMin is the database's count (pg_stat_database xact_commit +
	// xact_rollback), a minute; ClientTxPerMin the transactions the
	// component's connections began, counted by the client.
	TxPerMin       float64 `json:"txPerMin"`
	ClientTxPerMin float64 `json:"clientTxPerMin"`
	// CPU a minute, in ms: the process's and its database sessions'.
	ProcessCPUMs  float64 `json:"processCpuMsPerMin"`
	DatabaseCPUMs float64 `json:"databaseCpuMsPerMin"`
	CPUKnown      bool    `json:"cpuKnown"`
	// Wake is the component's wake as it logged it: "live", "polling" or
	// "" for a component without one.
	Wake   string  `json:"wake,omitempty"`
	Target float64 `json:"target"`
	// OnWorker is set for a component that runs on a stock worker (the
	// consumer, the relay): its figures include the worker's.
	OnWorker bool   `json:"onWorker"`
	Note     string `json:"note"`
	Line     string `json:"-"`
}

// Pickup is the time from a staging's commit to the relay's publish, the
// relay idle and backed off before each.
type Pickup struct {
	Samples int     `json:"samples"`
	P50Ms   float64 `json:"p50Ms"`
	P90Ms   float64 `json:"p90Ms"`
	MaxMs   float64 `json:"maxMs"`
	Target  float64 `json:"targetMs"`
	Line    string  `json:"-"`
}

// Result is the bench's figures.
type Result struct {
	WindowS float64  `json:"windowSeconds"`
	Figures []Figure `json:"figures"`
	Pickup  *Pickup  `json:"pickup,omitempty"`
}

// Run measures each component of o on a fresh database made through admin
// (and dropped after), writing a line per figure to out.
func Run(ctx context.Context, admin *pgxpool.Pool, o Options, out io.Writer) (Result, error) {
	if len(o.Components) == 0 {
		o.Components = Components
	}
	res := Result{WindowS: o.Window.Seconds()}
	var worker *Figure
	fmt.Fprintf(out, "idle cost over %s each (after %s of warm-up), on a fresh database; target ≤ %d transactions a minute\n",
		o.Window, o.Warmup, TargetTxPerMin)
	for _, name := range o.Components {
		start, ok := starters[name]
		if !ok {
			return res, fmt.Errorf("no component %q: pick among %v", name, Components)
		}
		f, pickup, err := measure(ctx, admin, o, name, start)
		if err != nil {
			return res, fmt.Errorf("%s: %w", name, err)
		}
		f.OnWorker = name == "consumer" || name == "relay"
		f.Line = line(f, worker)
		if name == "worker" {
			worker = &f
		}
		fmt.Fprintln(out, f.Line)
		res.Figures = append(res.Figures, f)
		if pickup != nil {
			fmt.Fprintln(out, pickup.Line)
			res.Pickup = pickup
		}
	}
	return res, nil
}
