// Package jobbench measures pipe's job core against a PostgreSQL database:
// the logic behind `pipe bench jobs`. Each figure runs jobs of its own names
// in a queue of its own, and deletes its rows (jobs and their journal) before
// and after, so it can run against a user's database without touching their
// jobs.
//
// The figures, printed one line each:
//
//	enqueue-many    EnqueueMany of N no-op jobs with distinct keys, batches of 1,000
//	work            N no-op jobs enqueued first (not timed), then worked down
//	steps           durable jobs of 3 Step calls each, 64 at a time
//	pickup          idle worker: enqueue one job, time until its body starts
//	pickup-process  the same, enqueued from another process (a re-exec of this
//	                program; see [HelperMain])
//	pickup-backlog  pickup with Backlog (1,000,000) jobs queued beside it
//	pickup-defaults pickup with the worker and the wake throttle at pipe
//	                worker's defaults (the others use River's bench settings):
//	                jobs 300 ms apart, each waking an idle worker, then a
//	                trickle 20 ms apart inside the throttle's 250 ms window
//	work-cut        work with every connection cut each CutEvery
//	recovery        at pipe worker's defaults: time from a cut of every
//	                connection to the next claim (p50/p99 over RecoveryCuts
//	                cuts), and work-down under one cut each CutEvery beside
//	                work-down without
//
// Speed belongs to this package's figures and Benchmark functions, never to
// test assertions.
package jobbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/bench/benchwait"
)

// The figure names [Options.Only] takes.
const (
	FigureEnqueueMany   = "enqueue-many"
	FigureWork          = "work"
	FigureSteps         = "steps"
	FigurePickup        = "pickup"
	FigurePickupProcess = "pickup-process"
	FigurePickupBacklog = "pickup-backlog"
	// FigurePickupDefaults is pickup at pipe worker's defaults (its poll,
	// fetch cooldown and the job's wake throttle), where pickup is at
	// River's bench settings.
	FigurePickupDefaults = "pickup-defaults"
	FigureWorkCut        = "work-cut"
	// FigureRecovery is what a user feels of cut connections: the time from
	// a cut of every connection to the worker's next claim, and work-down
	// under one cut each CutEvery beside work-down without, at pipe
	// worker's defaults.
	FigureRecovery = "recovery"
)

// AllFigures lists every figure in the order Run measures them.
var AllFigures = []string{FigureEnqueueMany, FigureWork, FigureWorkCut, FigureSteps, FigurePickup, FigurePickupProcess, FigurePickupBacklog, FigurePickupDefaults, FigureRecovery}

// Options adjust a run. A zero field takes the default its comment names.
type Options struct {
	// N is how many jobs enqueue-many and work use. Default 100,000.
	N int
	// Only names the figures to run (see AllFigures). Default: all of them;
	// pickup-process only when the program can re-exec itself as the helper
	// (it called [HelperMain]).
	Only []string
	// Slots is the worker's queue slots for work and pickup. Default 2,000,
	// River's MaxWorkers in its own bench (and the anchor's).
	Slots int
	// BatchSize is the inputs per EnqueueMany call. Default 1,000 (River's
	// bench inserts batches of 1,000); at most pipeline.MaxEnqueueBatch.
	BatchSize int
	// StepJobs is how many durable jobs the steps figure runs. Default 3,000.
	StepJobs int
	// StepConcurrency is the queue slots of the steps figure. Default 64.
	StepConcurrency int
	// PickupSamples is how many jobs each pickup figure times. Default 200.
	PickupSamples int
	// Backlog is how many jobs pickup-backlog queues beside its own.
	// Default 1,000,000.
	Backlog int
	// PickupGap is the pause between two pickup samples. Default 20ms.
	PickupGap time.Duration
	// FetchCooldown and PollInterval configure every bench worker. Defaults
	// 2ms and 20ms: River's own bench settings, which its anchor uses.
	FetchCooldown, PollInterval time.Duration
	// WakeThrottle is the bench jobs' wake throttle. Default 2ms.
	WakeThrottle time.Duration
	// Prefix starts every bench job name; the bench deletes rows of these
	// names only. Default "pipe.bench.".
	Prefix string
	// Queue is the queue the bench jobs run in. Default "pipe.bench".
	Queue string
	// CutEvery is how often work-cut resets every connection of its
	// worker's pool. Default 1s.
	CutEvery time.Duration
	// RecoveryCuts is how many cuts recovery times at least: its cut
	// work-down holds jobs enough for that many beats at the calm rate,
	// and every cut made while work is left is timed. Default 20.
	RecoveryCuts int
	// Stall fails a figure when no job progresses for this long. Default 60s.
	Stall time.Duration
	// NoVacuum skips the VACUUM (ANALYZE) of pipe.jobs and pipe.events after
	// each figure's cleanup, which keeps one figure's dead rows from slowing
	// the next.
	NoVacuum bool
	// Logger receives the bench workers' events. Default: warnings and
	// errors to stderr.
	Logger *slog.Logger
}

func (o Options) withDefaults() (Options, error) {
	o.N = orInt(o.N, 100_000)
	o.Slots = orInt(o.Slots, 2_000)
	o.BatchSize = orInt(o.BatchSize, 1_000)
	o.StepJobs = orInt(o.StepJobs, 3_000)
	o.StepConcurrency = orInt(o.StepConcurrency, 64)
	o.PickupSamples = orInt(o.PickupSamples, 200)
	o.PickupGap = orDur(o.PickupGap, 20*time.Millisecond)
	o.Backlog = orInt(o.Backlog, 1_000_000)
	o.FetchCooldown = orDur(o.FetchCooldown, 2*time.Millisecond)
	o.PollInterval = orDur(o.PollInterval, 20*time.Millisecond)
	o.WakeThrottle = orDur(o.WakeThrottle, 2*time.Millisecond)
	o.Stall = orDur(o.Stall, time.Minute)
	o.CutEvery = orDur(o.CutEvery, time.Second)
	o.RecoveryCuts = orInt(o.RecoveryCuts, 20)
	if o.Prefix == "" {
		o.Prefix = "pipe.bench."
	}
	if o.Queue == "" {
		o.Queue = "pipe.bench"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	var faults []string
	for name, v := range map[string]int{"N": o.N, "Slots": o.Slots, "BatchSize": o.BatchSize, "StepJobs": o.StepJobs,
		"StepConcurrency": o.StepConcurrency, "PickupSamples": o.PickupSamples, "Backlog": o.Backlog,
		"RecoveryCuts": o.RecoveryCuts} {
		if v < 1 {
			faults = append(faults, name+" is below 1")
		}
	}
	if o.BatchSize > 10_000 {
		faults = append(faults, "BatchSize is above 10,000 (pipeline.MaxEnqueueBatch)")
	}
	for _, f := range o.Only {
		if !slices.Contains(AllFigures, f) {
			faults = append(faults, fmt.Sprintf("unknown figure %q (figures: %s)", f, strings.Join(AllFigures, ", ")))
		}
	}
	if slices.Contains(o.Only, FigurePickupProcess) && !helperCapable.Load() {
		faults = append(faults, "pickup-process needs the program to call jobbench.HelperMain at the start of main")
	}
	if len(faults) > 0 {
		return o, errors.New("jobbench: " + strings.Join(faults, "; "))
	}
	if len(o.Only) == 0 {
		for _, f := range AllFigures {
			if f != FigurePickupProcess || helperCapable.Load() {
				o.Only = append(o.Only, f)
			}
		}
	}
	return o, nil
}

func orInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func orDur(v, def time.Duration) time.Duration {
	if v == 0 {
		return def
	}
	return v
}

// Figure is one measured figure.
type Figure struct {
	// Name is the figure's name (FigureWork, …); Line the line printed.
	Name, Line string
	// Count is what was timed: jobs, or steps for the steps figure.
	Count int
	// Elapsed is the timed span.
	Elapsed time.Duration
	// Rate is Count per second: jobs/s, or steps/s for the steps figure.
	Rate float64
	// RunsRate is the steps figure's runs (jobs) per second.
	RunsRate float64
	// SettledRate is the work figure's jobs/s counted until the last
	// completion landed in the database, not until the last body returned.
	SettledRate float64
	// Median, P90 and Max are a pickup figure's latencies; Samples its size.
	// The recovery figure's are its cut-to-claim times, with P99.
	Median, P90, P99, Max time.Duration
	Samples               int
	// TrickleMedian, TrickleP90 and TrickleMax are pickup-defaults' second
	// latencies: the same number of jobs PickupGap apart, inside the
	// default wake throttle's window.
	TrickleMedian, TrickleP90, TrickleMax time.Duration
	// CalmRate is the recovery figure's work-down without cuts, jobs/s;
	// Rate is its work-down under the cuts.
	CalmRate float64
	// CPU is the work figure's CPU time a job.
	CPU CPU
}

// Results are the figures of one run, in the order they ran.
type Results struct {
	Figures []Figure
}

// Figure answers the figure named name.
func (r Results) Figure(name string) (Figure, bool) {
	for _, f := range r.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}

// Run measures the figures opts selects through pool, printing one line per
// figure to out as each completes (and a first line, starting with #, that
// names the setting). pool's database must be migrated. On an error, Run
// answers the figures measured so far with it; every figure cleans its rows
// whether it succeeded or not.
func Run(ctx context.Context, pool *pgxpool.Pool, opts Options, out io.Writer) (Results, error) {
	var res Results
	o, err := opts.withDefaults()
	if err != nil {
		return res, err
	}
	b := &bench{pool: pool, o: o}
	header, err := b.header(ctx)
	if err != nil {
		return res, err
	}
	if _, err := fmt.Fprintln(out, header); err != nil {
		return res, err
	}
	for _, name := range o.Only {
		f, err := b.figure(ctx, name)
		if err != nil {
			return res, fmt.Errorf("jobbench: %s: %w", name, err)
		}
		res.Figures = append(res.Figures, f)
		if _, err := fmt.Fprintln(out, f.Line); err != nil {
			return res, err
		}
	}
	return res, nil
}

type bench struct {
	pool *pgxpool.Pool
	o    Options
}

func (b *bench) header(ctx context.Context) (string, error) {
	var version string
	var migrated bool
	err := b.pool.QueryRow(ctx, `select current_setting('server_version'), to_regclass('pipe.jobs') is not null`).
		Scan(&version, &migrated)
	if err != nil {
		return "", fmt.Errorf("jobbench: reach the database: %w", err)
	}
	if !migrated {
		return "", errors.New("jobbench: the database has no pipe.jobs table: run `pipe migrate` first")
	}
	return fmt.Sprintf("# pipe bench jobs: PostgreSQL %s, pool of %d connections, GOMAXPROCS %d, jobs %s* in queue %s",
		version, b.pool.Config().MaxConns, runtime.GOMAXPROCS(0), b.o.Prefix, b.o.Queue), nil
}

// figure runs one figure between two cleanups of its job names.
func (b *bench) figure(ctx context.Context, name string) (Figure, error) {
	jobName := b.o.Prefix + name
	if err := b.cleanup(ctx, jobName); err != nil {
		return Figure{}, err
	}
	var f Figure
	var err error
	switch name {
	case FigureEnqueueMany:
		f, err = b.enqueueMany(ctx, jobName)
	case FigureWork:
		f, err = b.work(ctx, jobName)
	case FigureWorkCut:
		f, err = b.workCut(ctx, jobName)
	case FigureSteps:
		f, err = b.steps(ctx, jobName)
	case FigurePickup:
		f, err = b.pickup(ctx, jobName, false)
	case FigurePickupProcess:
		f, err = b.pickup(ctx, jobName, true)
	case FigurePickupBacklog:
		f, err = b.pickupBacklog(ctx, jobName)
	case FigurePickupDefaults:
		f, err = b.pickupWith(ctx, jobName, false, true)
	case FigureRecovery:
		f, err = b.recovery(ctx, jobName)
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
	defer cancel()
	if cerr := b.cleanup(cctx, jobName); cerr != nil && err == nil {
		err = cerr
	}
	if err == nil && !b.o.NoVacuum {
		b.vacuum(cctx)
	}
	f.Name = name
	return f, err
}

// cleanup deletes the journal and the rows of the named jobs, in one
// transaction.
func (b *bench) cleanup(ctx context.Context, names ...string) error {
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("cleanup: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if _, err := tx.Exec(ctx, `delete from pipe.events e using pipe.jobs j where j.name = any($1) and e.job_id = j.id`, names); err != nil {
		return fmt.Errorf("cleanup: delete events: %w", err)
	}
	if _, err := tx.Exec(ctx, `delete from pipe.jobs where name = any($1)`, names); err != nil {
		return fmt.Errorf("cleanup: delete jobs: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("cleanup: %w", err)
	}
	return nil
}

// vacuum reclaims the dead rows a figure left. It is best effort: a user
// who does not own the tables gets a warning from the server, not an error.
func (b *bench) vacuum(ctx context.Context) {
	if _, err := b.pool.Exec(ctx, `vacuum (analyze) pipe.runs, pipe.run_events`); err != nil {
		b.o.Logger.Warn("jobbench.vacuum.failed", "error", err)
	}
}

// countDone answers how many rows of job name are in state done.
func (b *bench) countDone(ctx context.Context, name string) (int, error) {
	var n int
	err := b.pool.QueryRow(ctx, `select count(*) from pipe.jobs where name = $1 and state = 'done'`, name).Scan(&n)
	return n, err
}

// waitFor waits for count to reach target, failing when it does not move
// for o.Stall.
func (b *bench) waitFor(ctx context.Context, what string, count func() int64, target int64) error {
	return benchwait.Count(ctx, what, count, target, b.o.Stall)
}

func perSecond(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}
