package bench

import (
	"io"
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/storebench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func storeCommand(env pipecli.Env) *cobra.Command {
	var o storebench.Options
	c := &cobra.Command{
		Use:   "store",
		Short: "Measure the job store at volume: reads, claims, sizes and a day's drop over millions of finished runs",
		Long: "bench store makes two scratch databases (pipe_bench_store_<tag>_full and _empty) on the server the\n" +
			"database URL reaches — its user needs CREATEDB — and drops them after. It fills the first by COPY\n" +
			"with --finished runs (default 10,000,000) spread over the --days days (default 14) before today and\n" +
			"--open open ones (default 100,000), then prints the fill's time and rows/s; the store's size; p50/p99 and the\n" +
			"plan's scans of every operator read (list by each filter, next page, show, queue stats); every console\n" +
			"page over HTTP; EnqueueMany\n" +
			"and work-down of --jobs no-op runs with `pipe worker`'s defaults in the full store and the empty one\n" +
			"(--rounds rounds each, taking turns), and the claim's latency; and the retention dropping a day\n" +
			"while enqueues and claims run. 10M runs take some 8 GB of disk and 5 minutes or more to load.",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Finished < 1000 || o.Open < 1 || o.Jobs < 1 || o.Rounds < 1 || o.Samples < 1 || o.Days < 2 || o.Days > 14 {
				return pipecli.UsageError(c, "--finished must be 1000 or more, --days 2 to 14, --open, --jobs, --rounds and --samples 1 or more")
			}
			o.Logger = slog.New(slog.NewTextHandler(env.Stderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			url, err := env.DatabaseURL(c.Context())
			if err != nil {
				return err
			}
			out := env.Stdout()
			if env.JSON() {
				out = io.Discard
			}
			res, err := storebench.Run(c.Context(), url, o, out)
			if err != nil {
				return benchErr(err)
			}
			if env.JSON() {
				return env.PrintJSON(res)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.IntVar(&o.Finished, "finished", 10_000_000, "finished runs in the full store, over the --days days before today")
	fl.IntVar(&o.Days, "days", 14, "whole UTC days before today the finished runs spread over, 2 to 14 (--finished 10000000 --days 10: a day of 1M runs to drop)")
	fl.IntVar(&o.Open, "open", 100_000, "open runs in the full store")
	fl.IntVar(&o.Jobs, "jobs", 100_000, "no-op runs enqueued and worked down in each store")
	fl.IntVar(&o.Rounds, "rounds", 2, "throughput rounds per store, the stores taking turns; the best round counts")
	fl.IntVar(&o.Samples, "samples", 50, "timed calls per operator read")
	return c
}
