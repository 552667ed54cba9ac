package pipecli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/project"
)

// backfillJob is a backfill pass as pipe.json (and backfill.Request)
// declares it.
type backfillJob = pipeline.Job[backfill.Request, backfill.Result]

func (a *app) backfillCommand() *cobra.Command {
	return group("backfill", "Run and steer backfill passes (the ledger pipe.backfills)",
		a.backfillRunCommand(), a.backfillListCommand(), a.backfillShowCommand(),
		a.backfillHoldCommand("pause", "Hold a pass before its next batch", backfill.Pause),
		a.backfillHoldCommand("resume", "Lift an operator's pause", backfill.Resume),
		a.backfillCancelCommand())
}

func (a *app) backfillRunCommand() *cobra.Command {
	var config string
	var wait bool
	c := &cobra.Command{
		Use:   "run NAME [--config pipe.json] [--wait]",
		Short: "Enqueue one pass of a declared backfill",
		Long: "backfill run enqueues one pass of the backfill NAME, declared in --config or among the jobs\n" +
			"this pipe was built with (with backfill.Request as its input). The pass walks the table in\n" +
			"key order, a batch at a time, each batch's effect committed with its cursor; while a pass\n" +
			"of it is live the enqueue answers that pass. Without --wait it prints the run's id for the\n" +
			"fleet's `pipe worker`s; with --wait it runs the pass in this process with a progress bar.",
		Args: exactArgs("NAME"),
		RunE: func(c *cobra.Command, args []string) error {
			p, err := a.useProject(config)
			if err != nil {
				return err
			}
			job, err := a.findBackfill(args[0])
			if err != nil {
				return err
			}
			_, err = checkAndRun(a, c, job, backfillCheck(p, job), backfill.Request{}, wait, func(id string, r backfill.Result) string {
				return fmt.Sprintf("backfilled %d rows in %d batches; run %s", r.Rows, r.Batches, id)
			})
			return err
		},
	}
	configFlag(c, &config)
	c.Flags().BoolVar(&wait, "wait", false, "run the pass in this process and wait for it")
	return c
}

// backfillCheck is a pass's check against the live catalog before it is
// enqueued (checkDeclared's, on the command's own connection): a pass
// refused leaves no run behind.
func backfillCheck(p *project.Project, job *backfillJob) preCheck[backfill.Request] {
	return func(ctx context.Context, db pipeline.DB, _ backfill.Request) error {
		return verifyDeclared(ctx, db, p, job)
	}
}

// findBackfill answers the backfill named name among the registered jobs.
func (a *app) findBackfill(name string) (*backfillJob, error) {
	for _, j := range a.opts.Jobs {
		if b, ok := j.(*backfillJob); ok && b.Name() == name {
			return b, nil
		}
	}
	return nil, errcode.New(errcode.JobUnknown, "no backfill is named %s", name).
		WithFix("declare it in a project file and pass --config pipe.json, or register it with pipecli.Options.Jobs")
}

func (a *app) backfillListCommand() *cobra.Command {
	var name string
	var limit int
	c := &cobra.Command{
		Use:   "list [--name NAME] [--limit N]",
		Short: "The ledger's passes, newest first",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			pool, err := a.connect(c.Context(), migrated)
			if err != nil {
				return err
			}
			defer pool.Close()
			ps, err := backfill.List(c.Context(), pool, name, limit)
			if err != nil {
				return err
			}
			lines := make([]string, len(ps))
			for i, p := range ps {
				lines[i] = passLine(p)
			}
			if len(ps) == 0 {
				lines = []string{"no backfill pass"}
			}
			return a.emit(passList{Passes: ps}, strings.Join(lines, "\n"))
		},
	}
	c.Flags().StringVar(&name, "name", "", "only the passes of this backfill")
	c.Flags().IntVar(&limit, "limit", 50, "at most this many passes")
	return c
}

type passList struct {
	Passes []backfill.Pass `json:"passes"`
}

func (a *app) backfillShowCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "show RUN|NAME",
		Short: "One pass: its ledger row (a name shows its newest pass)",
		Args:  exactArgs("RUN|NAME"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.backfillAct(c, func(db pipeline.DB) (backfill.Pass, error) {
				return backfill.Show(c.Context(), db, args[0])
			})
		},
	}
}

func (a *app) backfillHoldCommand(verb, short string, act func(ctx context.Context, db pipeline.DB, ref string) (backfill.Pass, error)) *cobra.Command {
	return &cobra.Command{
		Use:   verb + " RUN|NAME",
		Short: short,
		Args:  exactArgs("RUN|NAME"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.backfillAct(c, func(db pipeline.DB) (backfill.Pass, error) {
				return act(c.Context(), db, args[0])
			})
		},
	}
}

func (a *app) backfillCancelCommand() *cobra.Command {
	var reason string
	c := &cobra.Command{
		Use:   "cancel RUN|NAME [--reason WHY]",
		Short: "Stop a pass for good, its cursor kept",
		Args:  exactArgs("RUN|NAME"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.backfillAct(c, func(db pipeline.DB) (backfill.Pass, error) {
				return backfill.Cancel(c.Context(), db, args[0], reason)
			})
		},
	}
	c.Flags().StringVar(&reason, "reason", "cancelled with pipe backfill cancel", "why, for the run's journal")
	return c
}

// backfillAct runs act on the database and prints the pass it answers.
func (a *app) backfillAct(c *cobra.Command, act func(db pipeline.DB) (backfill.Pass, error)) error {
	pool, err := a.connect(c.Context(), migrated)
	if err != nil {
		return err
	}
	defer pool.Close()
	p, err := act(pool)
	if err != nil {
		return err
	}
	return a.emit(p, passLine(p))
}

// passLine is one pass in a line of text.
func passLine(p backfill.Pass) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s  %s  %s  rows %d", p.RunID, p.Name, p.Target, p.State, p.Rows)
	if p.Total != nil {
		fmt.Fprintf(&b, " of ~%d", *p.Total)
	}
	fmt.Fprintf(&b, "  batches %d  size %d  %.0f rows/s", p.Batches, p.BatchSize, p.Rate)
	if p.Cursor != nil {
		fmt.Fprintf(&b, "  cursor %s", *p.Cursor)
	}
	if p.ETA != nil {
		fmt.Fprintf(&b, "  eta %s", p.ETA.Round(time.Second))
	}
	if p.PauseReason != nil {
		fmt.Fprintf(&b, "  (%s)", *p.PauseReason)
	}
	if p.LastError != nil {
		fmt.Fprintf(&b, "  last error %s", *p.LastError)
	}
	return b.String()
}
