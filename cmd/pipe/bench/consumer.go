package bench

import (
	"context"
	"io"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/consumerbench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func consumerCommand(env pipecli.Env) *cobra.Command {
	o := consumerbench.Options{}
	c := &cobra.Command{
		Use:   "consumer",
		Short: "Measure a consumer: items a second through handle and the cursor save",
		Long: "bench consumer follows --keys feeds of --items items each (generated in memory) with a consumer\n" +
			"whose handle inserts each batch into the table pipe_bench_consumer and whose cursor is kept in\n" +
			"pipe, one transaction a batch, for each --batch size; beside it, the anchor: the same insert and\n" +
			"cursor upsert in one transaction a batch from a plain loop, without pipe. It prints one line per\n" +
			"figure, deletes its runs and cursors, and drops the table after.",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Items < 1 || o.Keys < 1 || len(o.Batches) == 0 {
				return pipecli.UsageError(c, "--items, --keys and --batch must be 1 or more")
			}
			for _, b := range o.Batches {
				if b < 1 {
					return pipecli.UsageError(c, "--batch sizes must be 1 or more")
				}
			}
			o.Logger = slog.New(slog.NewTextHandler(env.Stderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			return runBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
				return consumerbench.Run(ctx, pool, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.IntVar(&o.Items, "items", 100_000, "items per key")
	fl.IntVar(&o.Keys, "keys", 1, "keys followed at once, one run each")
	fl.IntSliceVar(&o.Batches, "batch", []int{100, 1000}, "batch sizes, comma-separated")
	return c
}
