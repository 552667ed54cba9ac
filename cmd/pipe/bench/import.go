package bench

import (
	"context"
	"io"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/filebench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func importCommand(env pipecli.Env) *cobra.Command {
	var o filebench.Options
	c := &cobra.Command{
		Use:   "import",
		Short: "Measure pipe import beside COPY + upsert",
		Long: "bench import generates the anchors' orders file (--rows, default 1,000,000: about 117 MB\n" +
			"with quoted commas, doubled quotes, newlines in quotes and multibyte text), or reads --file,\n" +
			"then times the anchor — COPY into a staging table and one INSERT ... ON CONFLICT DO UPDATE\n" +
			"in one transaction — and `pipe import` with upsert and checkpoints, run in a helper process\n" +
			"whose peak RSS it reports. With --no-key the import inserts every row and the anchor is one\n" +
			"plain COPY. It uses the table pipe_bench_orders and drops it after.",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Rows < 0 || (o.PageBytes != 0 && o.PageBytes < 64<<10) {
				return pipecli.UsageError(c, "--rows is negative or --page-bytes is below 65536")
			}
			return fileBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, url string, out io.Writer) (any, error) {
				return filebench.Run(ctx, pool, url, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.IntVar(&o.Rows, "rows", 0, "orders in the generated file (default 1000000)")
	fl.StringVar(&o.File, "file", "", "import this orders CSV instead of generating one")
	fl.Int64Var(&o.PageBytes, "page-bytes", 0, "the import's page size (default 8 MiB)")
	fl.BoolVar(&o.SkipAnchor, "skip-anchor", false, "skip the copy+upsert anchor")
	fl.BoolVar(&o.NoKey, "no-key", false, "import without a key (every row inserted, as COPY does); the anchor is then one plain COPY")
	fl.IntVar(&o.Parallel, "parallel", 1, "also time the import by N ranges (N worker slots beside the parent's, one helper) and one plain COPY")
	return c
}

// fileBench connects, runs one of the file benches with the database's URL
// (its helper process connects too) and prints its lines, or its figures
// as JSON with --json.
func fileBench(env pipecli.Env, c *cobra.Command, run func(ctx context.Context, pool *pgxpool.Pool, url string, out io.Writer) (any, error)) error {
	return runBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
		url, err := env.DatabaseURL(ctx)
		if err != nil {
			return nil, err
		}
		return run(ctx, pool, url, out)
	})
}
