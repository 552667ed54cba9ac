package bench

import (
	"context"
	"io"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/rollupbench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func rollupCommand(env pipecli.Env) *cobra.Command {
	var o rollupbench.Options
	c := &cobra.Command{
		Use:   "rollup",
		Short: "Show that a rollup's run costs its lookback window, not its table",
		Long: "bench rollup loads --first rows (default 1,000,000) into the table pipe_bench_rollup_src,\n" +
			"indexed on its time column, at the density of --rows (default 10,000,000) over a year: one\n" +
			"INSERT ... SELECT from generate_series. It times --runs runs of a daily rollup (lookback 2 days,\n" +
			"America/New_York) into pipe_bench_rollup_daily, then loads the older rows up to --rows and\n" +
			"times it again, printing per size the upsert step's time, the run's, the rows read and how\n" +
			"the plan reads the source. Loading 10M rows takes a minute or more. It drops its tables after.",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Rows < 0 || o.First < 0 || o.Runs < 0 || o.Lookback < 0 {
				return pipecli.UsageError(c, "--rows, --first, --runs and --lookback must not be negative")
			}
			o.Logger = slog.New(slog.NewTextHandler(env.Stderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			return runBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
				return rollupbench.Run(ctx, pool, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.Int64Var(&o.Rows, "rows", 0, "source rows at the second figure, a year of them (default 10000000)")
	fl.Int64Var(&o.First, "first", 0, "source rows at the first figure, the newest at the same density (default rows/10)")
	fl.IntVar(&o.Runs, "runs", 0, "runs timed per figure; the median is the figure (default 3)")
	fl.DurationVar(&o.Lookback, "lookback", 0, "the rollup's lookback (default 48h)")
	return c
}
