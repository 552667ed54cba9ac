package pipecli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
)

// rollupJob is a rollup job as pipe.json (and rollup.Request) declares it.
type rollupJob = pipeline.Job[rollup.Request, rollup.Result]

func (a *app) rollupCommand() *cobra.Command {
	return group("rollup", "Run declared rollups", a.rollupRunCommand())
}

func (a *app) rollupRunCommand() *cobra.Command {
	var config, from string
	var wait bool
	c := &cobra.Command{
		Use:   "run NAME [--config pipe.json] [--from TIME] [--wait]",
		Short: "Enqueue one run of a declared rollup now",
		Long: "rollup run enqueues one run of the rollup NAME, declared in --config or among the jobs this\n" +
			"pipe was built with (with rollup.Request as its input). The run re-reads the source from the\n" +
			"first instant of the bucket holding now - lookback and upserts every bucket; while a run of\n" +
			"it is still live the enqueue answers that run. --from TIME (RFC 3339, or a date) is a\n" +
			"backfill: it reads from the bucket holding TIME, to count rows older than the lookback.\n" +
			"Without --wait it prints the run's id for the fleet's `pipe worker`s; with --wait it runs\n" +
			"the rollup in this process and prints its window and counts.",
		Args: exactArgs("NAME"),
		RunE: func(c *cobra.Command, args []string) error {
			in, err := rollupRequest(c, from)
			if err != nil {
				return err
			}
			if _, err := a.useProject(config); err != nil {
				return err
			}
			job, err := a.findRollup(args[0])
			if err != nil {
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
	c.Flags().BoolVar(&wait, "wait", false, "run the rollup in this process and wait for it")
	return c
}

func rollupRequest(c *cobra.Command, from string) (rollup.Request, error) {
	if from == "" {
		return rollup.Request{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if t, err := time.Parse(layout, from); err == nil {
			return rollup.Request{From: t}, nil
		}
	}
	return rollup.Request{}, usageError(c, "--from is not an RFC 3339 instant or a YYYY-MM-DD date")
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
