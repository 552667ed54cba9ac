package bench

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/jobbench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func jobsCommand(env pipecli.Env) *cobra.Command {
	var o jobbench.Options
	c := &cobra.Command{
		Use:   "jobs",
		Short: "Measure the job core: enqueue, work, steps and pickup latency",
		Long: "bench jobs runs no-op jobs of its own names (pipe.bench.*) in a queue of its own and\n" +
			"prints one line per figure as it completes. It deletes its rows before and after each\n" +
			"figure, so it leaves the database's other jobs alone. Figures: " + figureList() + ".",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			for _, f := range o.Only {
				if !slices.Contains(jobbench.AllFigures, f) {
					return pipecli.UsageError(c, "--only names no figure %q (figures: %s)", f, figureList())
				}
			}
			o.Logger = slog.New(slog.NewTextHandler(env.Stderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			return runBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
				res, err := jobbench.Run(ctx, pool, o, out)
				if err != nil {
					return nil, err
				}
				return benchJSON(res), nil
			})
		},
	}
	fl := c.Flags()
	fl.IntVar(&o.N, "n", 0, "jobs for enqueue-many and work (default 100000)")
	fl.StringSliceVar(&o.Only, "only", nil, "figures to run, comma-separated (default all)")
	fl.IntVar(&o.Slots, "slots", 0, "worker slots for work and pickup (default 2000, as River's bench)")
	fl.IntVar(&o.StepJobs, "step-jobs", 0, "durable jobs for the steps figure (default 3000)")
	fl.IntVar(&o.PickupSamples, "samples", 0, "jobs each pickup figure times (default 200)")
	fl.IntVar(&o.Backlog, "backlog", 0, "jobs pickup-backlog queues beside its own (default 1000000)")
	fl.DurationVar(&o.CutEvery, "cut-every", 0, "how often work-cut and recovery reset every connection of their worker's pool (default 1s)")
	fl.IntVar(&o.RecoveryCuts, "recovery-cuts", 0, "cuts the recovery figure times at least (default 20)")
	return c
}

func figureList() string { return strings.Join(jobbench.AllFigures, ", ") }

// benchFigure is one figure as --json prints it, durations in milliseconds.
type benchFigure struct {
	Name        string  `json:"name"`
	Line        string  `json:"line"`
	Count       int     `json:"count"`
	ElapsedMs   float64 `json:"elapsedMs"`
	Rate        float64 `json:"rate"`
	RunsRate    float64 `json:"runsRate,omitempty"`
	SettledRate float64 `json:"settledRate,omitempty"`
	MedianMs    float64 `json:"medianMs,omitempty"`
	P90Ms       float64 `json:"p90Ms,omitempty"`
	P99Ms       float64 `json:"p99Ms,omitempty"`
	CalmRate    float64 `json:"calmRate,omitempty"`
	MaxMs       float64 `json:"maxMs,omitempty"`
	Samples     int     `json:"samples,omitempty"`
}

func benchJSON(res jobbench.Results) []benchFigure {
	out := make([]benchFigure, 0, len(res.Figures))
	for _, f := range res.Figures {
		out = append(out, benchFigure{
			Name: f.Name, Line: f.Line, Count: f.Count, ElapsedMs: ms(f.Elapsed), Rate: f.Rate,
			RunsRate: f.RunsRate, SettledRate: f.SettledRate,
			MedianMs: ms(f.Median), P90Ms: ms(f.P90), P99Ms: ms(f.P99), CalmRate: f.CalmRate, MaxMs: ms(f.Max), Samples: f.Samples,
		})
	}
	return out
}
