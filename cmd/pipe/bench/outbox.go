package bench

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/outboxbench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func outboxCommand(env pipecli.Env) *cobra.Command {
	o := outboxbench.Options{}
	c := &cobra.Command{
		Use:   "outbox",
		Short: "Measure the outbox: relay throughput to JetStream, staging cost, end-to-end lag",
		Long: "bench outbox stages --rows messages of 1 KiB and relays them to NATS JetStream (--nats), for each\n" +
			"--batch size: first with the anchor, the spec's relay as a plain loop (claim a batch FOR UPDATE\n" +
			"SKIP LOCKED, publish it, mark it, commit), then with pipe's relay, each on a fresh stream; the\n" +
			"spec's own figure (8,564-9,505 rows/s at 500 a batch) is printed beside. It then commits --stages\n" +
			"one-row transactions with outbox.Stage and as many plain inserts of the same row, and stages\n" +
			"--rate rows a second for --duration with the relay running, timing each message from its staging\n" +
			"to a consumer of the broker (p50, p99). It deletes its rows, runs, table and stream after.",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Rows < 1 || o.Stages < 1 || o.Rate < 1 || o.Duration < time.Second || len(o.Batches) == 0 {
				return pipecli.UsageError(c, "--rows, --stages, --rate and --batch must be 1 or more, --duration 1s or more")
			}
			for _, b := range o.Batches {
				if b < 1 {
					return pipecli.UsageError(c, "--batch sizes must be 1 or more")
				}
			}
			o.Logger = slog.New(slog.NewTextHandler(env.Stderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			return runBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
				return outboxbench.Run(ctx, pool, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.NATS, "nats", "nats://127.0.0.1:4222", "the NATS JetStream server")
	fl.IntVar(&o.Rows, "rows", 100_000, "rows relayed per throughput figure")
	fl.IntSliceVar(&o.Batches, "batch", []int{500, 1000}, "relay batch sizes, comma-separated")
	fl.IntVar(&o.Stages, "stages", 5_000, "one-row transactions per staging figure")
	fl.IntVar(&o.Rate, "rate", 1_000, "rows a second staged for the lag figure")
	fl.DurationVar(&o.Duration, "duration", 10*time.Second, "how long the lag figure stages")
	return c
}
