package bench

import (
	"context"
	"io"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/filebench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/exportrows"
)

func exportCommand(env pipecli.Env) *cobra.Command {
	var o filebench.ExportOptions
	c := &cobra.Command{
		Use:   "export",
		Short: "Measure pipe export beside COPY TO",
		Long: "bench export loads --rows orders (default 1,000,000) into the table pipe_bench_export, then\n" +
			"times the anchor — COPY (SELECT ...) TO STDOUT as CSV into a file, what `psql \\copy ... to`\n" +
			"does — beside `pipe export` to CSV and to Parquet with zstd, and to CSV in --parallel key ranges\n" +
			"(default 2, the parent and each range in one helper worker), each run in a helper process\n" +
			"whose peak RSS it reports. It drops the table after.",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Rows < 0 || o.PageRows < 0 || o.Parallel < 0 || o.Parallel > exportrows.MaxParallel {
				return pipecli.UsageError(c, "--rows or --page-rows is negative, or --parallel is not from 0 to %d", exportrows.MaxParallel)
			}
			return fileBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, url string, out io.Writer) (any, error) {
				return filebench.RunExport(ctx, pool, url, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.IntVar(&o.Rows, "rows", 0, "orders in the table (default 1000000)")
	fl.IntVar(&o.PageRows, "page-rows", 0, "the export's page size (default 100000)")
	fl.IntVar(&o.Parallel, "parallel", 0, "key ranges the parallel run reads at once (default 2)")
	return c
}
