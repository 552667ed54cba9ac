package pipecli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/project"
	"github.com/pipekit/pipe/rollup"
)

// rollupJob is a rollup job as pipe.json (and rollup.Request) declares it.
type rollupJob = pipeline.Job[rollup.Request, rollup.Result]

func (a *app) rollupCommand() *cobra.Command {
	return group("rollup", "Run declared rollups", a.rollupRunCommand())
}

func (a *app) rollupRunCommand() *cobra.Command {
	var config, from, asOf string
	var wait bool
	c := &cobra.Command{
		Use:   "run NAME [--config pipe.json] [--from TIME] [--as-of TIME] [--wait]",
		Short: "Enqueue one run of a declared rollup now",
		Long: "rollup run enqueues one run of the rollup NAME, declared in --config or among the jobs this\n" +
			"pipe was built with (with rollup.Request as its input). It first checks the declaration\n" +
			"against the catalog as a worker does when it starts (the target, its key's unique index, the\n" +
			"source's columns and types): a fault exits 1 with its code and nothing is enqueued. The run\n" +
			"re-reads the source from the first instant of the bucket holding now - lookback and upserts\n" +
			"every bucket; while a run of it is still live the enqueue answers that run. --from TIME (RFC\n" +
			"3339, or a date) is a backfill: it reads from the bucket holding TIME, to count rows older\n" +
			"than the lookback. --as-of TIME replays the run a past instant would have made: TIME is this\n" +
			"run's now (in its input; no other clock moves), the source still read whole from its window\n" +
			"on. Without --wait it prints the run's id for the fleet's `pipe worker`s; with --wait it runs\n" +
			"the rollup in this process and prints its window and counts.",
		Args: exactArgs("NAME"),
		RunE: func(c *cobra.Command, args []string) error {
			in, err := rollupRequest(c, from, asOf)
			if err != nil {
				return err
			}
			p, err := a.useProject(config)
			if err != nil {
				return err
			}
			job, err := a.findRollup(args[0])
			if err != nil {
				return err
			}
			if err := a.checkDeclared(c.Context(), p, job); err != nil {
				return err
			}
			return enqueueOrWait(a, c, job, in, wait, func(id string, r rollup.Result) string {
				return fmt.Sprintf("rolled up %d rows into %d buckets (%d written) from %s; run %s",
					r.Rows, r.Buckets, r.Written, r.Since.UTC().Format(time.RFC3339), id)
			})
		},
	}
	configFlag(c, &config)
	c.Flags().StringVar(&from, "from", "", "backfill from the bucket holding this instant (RFC 3339 or YYYY-MM-DD, UTC)")
	c.Flags().StringVar(&asOf, "as-of", "", "run as of this past instant: the run's now (RFC 3339 or YYYY-MM-DD, UTC)")
	c.Flags().BoolVar(&wait, "wait", false, "run the rollup in this process and wait for it")
	return c
}

func rollupRequest(c *cobra.Command, from, asOf string) (rollup.Request, error) {
	var in rollup.Request
	var err error
	if in.From, err = instantFlag(c, "--from", from); err != nil {
		return in, err
	}
	if in.AsOf, err = instantFlag(c, "--as-of", asOf); err != nil {
		return in, err
	}
	if !in.AsOf.IsZero() && in.AsOf.After(time.Now()) {
		return in, usageError(c, "--as-of is in the future: a run as of an instant replays the past")
	}
	return in, nil
}

// instantFlag reads an RFC 3339 instant or a YYYY-MM-DD date (UTC); ""
// is the zero time.
func instantFlag(c *cobra.Command, flag, value string) (time.Time, error) {
	if value == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if t, err := time.Parse(layout, value); err == nil {
			return t, nil
		}
	}
	return time.Time{}, usageError(c, "%s is not an RFC 3339 instant or a YYYY-MM-DD date", flag)
}

// findRollup answers the rollup named name among the registered jobs.
func (a *app) findRollup(name string) (*rollupJob, error) {
	for _, j := range a.opts.Jobs {
		if r, ok := j.(*rollupJob); ok && r.Name() == name {
			return r, nil
		}
	}
	return nil, errcode.New(errcode.JobUnknown, "no rollup is named %s", name).
		WithFix("declare it in a project file and pass --config pipe.json, or register it with pipecli.Options.Jobs")
}

// checkDeclared checks a declared job against the catalog before it is
// enqueued — the check a worker makes when it starts (JobOptions.Verify) —
// so that a fault exits with its code and leaves no run. A job the project
// file declares is checked by the project, its faults naming the file's
// keys.
func (a *app) checkDeclared(ctx context.Context, p *project.Project, job pipeline.Registrable) error {
	pool, err := a.connect(ctx, migrated)
	if err != nil {
		return err
	}
	defer pool.Close()
	return verifyDeclared(ctx, pool, p, job)
}

// verifyDeclared is checkDeclared's check on db.
func verifyDeclared(ctx context.Context, db pipeline.DB, p *project.Project, job pipeline.Registrable) error {
	if p != nil {
		if d, ok := p.Lookup(job.Name()); ok {
			return d.Verify(ctx, db)
		}
	}
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return err
	}
	return reg.Verify(ctx, db)
}
