package pipecli

import (
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/subject"
	"github.com/pipekit/pipe/views"
)

// workerFlags are the worker command's flags.
type workerFlags struct {
	queues       []string
	maxInFlight  int
	perTenant    int
	drainTimeout time.Duration
	metricsAddr  string
}

func (a *app) workerCommand() *cobra.Command {
	var f workerFlags
	var config string
	c := &cobra.Command{
		Use:   "worker",
		Short: "Run the registered jobs until SIGINT or SIGTERM",
		Long: "worker claims and runs the jobs this pipe was built with. On SIGINT or SIGTERM it drains:\n" +
			"it stops claiming and cancels each running body with X_DRAINING; a body that unwinds\n" +
			"within --drain-timeout goes straight back to the queue with its attempt uncounted, and\n" +
			"one that does not is abandoned to its lease. A second signal ends the process at once.\n" +
			"A scheduler runs beside the worker for the tasks this pipe declares (pipecli.Options.Tasks)\n" +
			"and the hourly maintenance (pipe.maintain: finished runs purged past their retention);\n" +
			"one scheduler across the fleet leads and fires them. --metrics-addr serves Prometheus\n" +
			"metrics on /metrics. --config pipe.json adds the project file's rollups, view refreshes and\n" +
			"tasks. Logs go to stderr: text, or JSON with --json.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cfg, err := f.config(c)
			if err != nil {
				return err
			}
			p, err := a.useProject(config)
			if err != nil {
				return err
			}
			if a.replica, err = a.openReplica(c.Context()); err != nil {
				return err
			}
			if a.replica != nil {
				defer a.replica.Close()
			}
			if cfg.Registry, err = a.registry(); err != nil {
				return err
			}
			pool, err := a.connect(c.Context(), migrated)
			if err != nil {
				return err
			}
			defer pool.Close()
			if err := armOutbox(c.Context(), p, pool); err != nil {
				return err
			}
			cfg.Logger = a.logger()
			return a.serve(c.Context(), pool, cfg, f.metricsAddr, f.drainTimeout, nil)
		},
	}
	fl := c.Flags()
	fl.StringSliceVar(&f.queues, "queue", nil, "serve queue q with N slots, as q=N or q for 100 (repeat or comma-separate); default $WORKER_QUEUES, else every registered job's queue, 100 slots each")
	fl.IntVar(&f.maxInFlight, "max-in-flight", 0, "cap on simultaneous runs across all queues; 0 means no cap")
	fl.IntVar(&f.perTenant, "max-in-flight-per-tenant", 0, "cap on one tenant's simultaneous runs in this process (the rest wait, uncounted); 0 means no cap")
	fl.DurationVar(&f.drainTimeout, "drain-timeout", 30*time.Second, "on SIGINT/SIGTERM, how long running bodies get to unwind")
	fl.StringVar(&f.metricsAddr, "metrics-addr", "", "serve Prometheus metrics on http://ADDR/metrics, such as :9090; default none")
	configFlag(c, &config)
	a.replicaFlag(c)
	return c
}

// config answers the worker configuration the flags ask for.
func (f workerFlags) config(c *cobra.Command) (pipeline.WorkerConfig, error) {
	cfg := pipeline.WorkerConfig{MaxInFlight: f.maxInFlight, MaxInFlightPerTenant: f.perTenant}
	if f.maxInFlight < 0 || f.perTenant < 0 {
		return cfg, usageError(c, "--max-in-flight and --max-in-flight-per-tenant must not be negative")
	}
	if f.drainTimeout < 0 {
		return cfg, usageError(c, "--drain-timeout is negative")
	}
	queues, from := f.queues, "--queue"
	if len(queues) == 0 {
		if env := strings.TrimSpace(os.Getenv("WORKER_QUEUES")); env != "" {
			queues, from = strings.Split(env, ","), "WORKER_QUEUES"
		}
	}
	for _, q := range queues {
		name, n, ok := queueSlots(strings.TrimSpace(q))
		if !ok {
			return cfg, usageError(c, "%s %q is not a queue name or name=N with N at least 1", from, q)
		}
		if cfg.Queues == nil {
			cfg.Queues = map[string]int{}
		}
		cfg.Queues[name] = n
	}
	return cfg, nil
}

// queueSlots reads a queue as the worker is given it: name=N, or a bare
// name for the default slots.
func queueSlots(q string) (string, int, bool) {
	name, slots, hasSlots := strings.Cut(q, "=")
	if name == "" {
		return "", 0, false
	}
	if !hasSlots {
		return name, pipeline.DefaultQueueSlots, true
	}
	n, err := strconv.Atoi(slots)
	return name, n, err == nil && n >= 1
}

// registry answers the registry of pipe's own jobs (pipe.import,
// pipe.export) and the
// jobs this pipe was built with.
func (a *app) registry() (*pipeline.Registry, error) {
	return pipeline.NewRegistry(append(append(stockJobs(a.replica), a.opts.Jobs...), a.receiverJobs()...)...)
}

// stockJobs are the jobs every pipe runs: the ones its commands enqueue,
// the exports reading their rows on replica when there is one.
func stockJobs(replica *pgxpool.Pool) []pipeline.Registrable {
	return append(importrows.TableJobs().All(), exportrows.TableJobFromReplica(replica), subject.EraseJob(),
		subject.ExportJobFromReplica(replica), views.RefreshJob())
}

// logger answers the worker's logger: text on stderr, JSON with --json.
// It is one logger per command line, so that everything it logs (the
// worker, the scheduler, the outbox relay) goes through one handler, one
// line at a time.
func (a *app) logger() *slog.Logger {
	if a.log == nil {
		if a.json {
			a.log = slog.New(slog.NewJSONHandler(a.stderr, nil))
		} else {
			a.log = slog.New(slog.NewTextHandler(a.stderr, nil))
		}
	}
	return a.log
}
