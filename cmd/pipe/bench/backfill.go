package bench

import (
	"context"
	"io"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/backfillbench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func backfillCommand(env pipecli.Env) *cobra.Command {
	var o backfillbench.Options
	c := &cobra.Command{
		Use:   "backfill",
		Short: "A backfill pass beside the single UPDATE it replaces",
		Long: "bench backfill loads --rows rows (default 10,000,000) into pipe_bench_backfill and sets one\n" +
			"column from another twice: with one UPDATE of the whole table, then with a backfill pass\n" +
			"(batches aiming at --target), while an application writer updates random rows of the same table every\n" +
			"--write-every. It prints each one's time and the writer's p50, p99 and worst latency, the\n" +
			"pass's speed as a ratio of the UPDATE's, and the pass's peak memory at --rows and a tenth of\n" +
			"it. It drops its table after.",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Rows < 0 || o.WriteEvery < 0 || o.Target < 0 {
				return pipecli.UsageError(c, "--rows, --target and --write-every must not be negative")
			}
			o.Logger = slog.New(slog.NewTextHandler(env.Stderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			return runBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
				return backfillbench.Run(ctx, pool, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.Int64Var(&o.Rows, "rows", 0, "the table's rows (default 10000000)")
	fl.DurationVar(&o.Target, "target", 0, "the pass's batch target duration (default 200ms)")
	fl.DurationVar(&o.WriteEvery, "write-every", 0, "the app writer's pause between updates (default 2ms)")
	return c
}
