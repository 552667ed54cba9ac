package bench

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/idlebench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func idleCommand(env pipecli.Env) *cobra.Command {
	o := idlebench.Options{}
	c := &cobra.Command{
		Use:   "idle",
		Short: "Measure what idle components cost: transactions and CPU a minute, and the relay's woken pickup",
		Long: "bench idle runs each component alone — a stock worker, a scheduler, a table-tail consumer, an\n" +
			"outbox relay (the last two on a stock worker) and the console's server — on a fresh database it\n" +
			"creates (the role needs CREATEDB) and drops after. After --warmup it counts, over --window, the\n" +
			"database's transactions (pg_stat_database, read from the bench's own database) and those the\n" +
			"component's connections began, and the CPU of the process and of the component's database\n" +
			"sessions, each a minute, beside the target of 30 transactions a minute. It then stages --samples\n" +
			"messages beside the idle relay, each after 6 s of quiet, and prints the pickup (staging to\n" +
			"publish) p50 and p90 beside the target of 50 ms.",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Window < time.Second || o.Warmup < 0 || o.Samples < 1 {
				return pipecli.UsageError(c, "--window must be 1s or more, --warmup 0 or more, --samples 1 or more")
			}
			for _, name := range o.Components {
				if !slices.Contains(idlebench.Components, name) {
					return pipecli.UsageError(c, "--components takes worker, scheduler, consumer, relay and console")
				}
			}
			o.Logger = slog.New(slog.NewTextHandler(env.Stderr(), &slog.HandlerOptions{Level: slog.LevelInfo}))
			return runBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
				return idlebench.Run(ctx, pool, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.DurationVar(&o.Window, "window", time.Minute, "how long each component is measured idle")
	fl.DurationVar(&o.Warmup, "warmup", 15*time.Second, "how long each component runs before its window")
	fl.IntVar(&o.Samples, "samples", 10, "staged messages timing the relay's pickup")
	fl.StringSliceVar(&o.Components, "components", idlebench.Components, "the components measured, comma-separated")
	return c
}
