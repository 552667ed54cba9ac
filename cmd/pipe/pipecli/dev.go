package pipecli

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) devCommand() *cobra.Command {
	var drain time.Duration
	var config string
	var cf consoleFlags
	c := &cobra.Command{
		Use:   "dev",
		Short: "Run pipe locally in the foreground: database, worker, scheduler and a live status line",
		Long: "dev migrates the database (the private PostgreSQL unless --database-url or DATABASE_URL\n" +
			"names one), then runs a worker over every registered job, the demo job included, and the\n" +
			"scheduler of its tasks and the hourly maintenance, until SIGINT or SIGTERM; it drains as\n" +
			"`pipe worker` does. On a terminal a status line of queue depths and runs in flight is\n" +
			"redrawn every second; otherwise a status line is printed every 5 s (a JSON object with\n" +
			"--json). --config pipe.json adds the project file's rollups, view refreshes and tasks.\n" +
			"A run that enqueues one job an input at a time in a loop (10 times) is warned of\n" +
			"(jobs.write.n_plus_one, X_N_PLUS_ONE_WRITE): one EnqueueMany does it in one statement.\n" +
			"The web console is served on --console-addr (127.0.0.1:8080; empty for none), read-only\n" +
			"unless --allow-actions. Worker logs go to stderr.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if drain < 0 {
				return usageError(c, "--drain-timeout is negative")
			}
			if cf.addr != "" {
				if err := cf.check(); err != nil {
					return err
				}
			}
			// One logger for everything dev runs (the project's outbox relay
			// too), written around the status line.
			line := a.newStatusLine()
			a.log = a.devLogger(line)
			if _, err := a.useProject(config); err != nil {
				return err
			}
			reg, err := pipeline.NewRegistry(a.devJobs()...)
			if err != nil {
				return err
			}
			pool, err := a.connect(c.Context(), anySchema)
			if err != nil {
				return err
			}
			defer pool.Close()
			if _, err := pipeline.Migrate(c.Context(), pool); err != nil {
				return err
			}
			if cf.addr != "" {
				// dev goes on without its console when the address is taken:
				// the worker is what dev is for.
				if shutdown, err := a.startConsole(pool, cf); err != nil {
					fmt.Fprintf(a.stderr, "pipe: the console is not served: %s\n", consoleFault(err))
				} else {
					defer func() { _ = shutdown() }()
				}
			}
			// dev watches each run for enqueues in a loop (X_N_PLUS_ONE_WRITE)
			cfg := pipeline.WorkerConfig{Registry: reg, Logger: a.logger(), WatchWrites: true}
			adm := pipeline.NewAdmin(pool)
			return a.serve(c.Context(), pool, cfg, "", drain, func(ctx context.Context, s *service) {
				line.run(ctx, func(ctx context.Context) devStatus { return readStatus(ctx, adm, s.worker) })
			})
		},
	}
	c.Flags().DurationVar(&drain, "drain-timeout", 30*time.Second, "on SIGINT/SIGTERM, how long running bodies get to unwind")
	cf.add(c, "console-", "serve the web console on this host:port; empty for none")
	configFlag(c, &config)
	return c
}

// devJobs answers the registered jobs, with the demo job added when no job
// has its name.
func (a *app) devJobs() []pipeline.Registrable {
	for _, j := range a.opts.Jobs {
		if j.Name() == DemoJobName {
			return a.opts.Jobs
		}
	}
	return append(append([]pipeline.Registrable{}, a.opts.Jobs...), DemoJob())
}

// devLogger answers the worker's logger for dev: text on stderr, JSON with
// --json, written around the status line.
func (a *app) devLogger(line *statusLine) *slog.Logger {
	w := line.around(a.stderr)
	if a.json {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// readStatus reads the queue depths and the worker's slots.
func readStatus(ctx context.Context, adm *pipeline.Admin, w *pipeline.Worker) devStatus {
	st := devStatus{At: time.Now().UTC().Truncate(time.Second), InFlight: w.InFlight(), Capacity: w.Capacity()}
	ctx, cancel := context.WithTimeout(ctx, statusReadTimeout)
	defer cancel()
	qs, err := adm.Queues(ctx)
	switch {
	case err != nil && ctx.Err() != nil:
		st.Error = "timed out"
	case err != nil:
		st.Error = errorCode(err)
	default:
		st.Queues = qs
	}
	if st.Queues == nil {
		st.Queues = []pipeline.QueueStats{}
	}
	return st
}
