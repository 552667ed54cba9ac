package bench

import (
	"context"
	"io"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/subjectbench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func subjectCommand(env pipecli.Env) *cobra.Command {
	var o subjectbench.Options
	c := &cobra.Command{
		Use:   "subject",
		Short: "Measure the erase and export of one person across 20 tables holding 1,000,000 rows",
		Long: "bench subject creates the schema " + subjectbench.Schema + " (20 tables, every foreign key indexed) holding\n" +
			"--members members of 1,060 rows each (default 944: 1,000,640 rows), asks the server to plan every\n" +
			"statement of the erase and export of one member and counts the sequential scans of tables over\n" +
			"10,000 rows (the target is none), then exports and erases that member's 1,000 rows with the\n" +
			"stock job machinery in this process. Statement time sums the round trips of the jobs' own\n" +
			"statements; step time the step transactions they run in (begin to commit, checkpoint included);\n" +
			"run time is enqueue to settle. It drops the schema after (--keep leaves it).",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Members < 0 || o.PageRows < 0 {
				return pipecli.UsageError(c, "--members or --page-rows is negative")
			}
			return runBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
				return subjectbench.Run(ctx, pool, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.IntVar(&o.Members, "members", 0, "members in the schema, 1,060 rows each (default 944)")
	fl.IntVar(&o.PageRows, "page-rows", 0, "the jobs' page size (default 1000)")
	fl.BoolVar(&o.Keep, "keep", false, "leave the schema in place after")
	return c
}
