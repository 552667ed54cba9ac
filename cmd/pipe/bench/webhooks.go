package bench

import (
	"context"
	"io"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/webhookbench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

func webhooksCommand(env pipecli.Env) *cobra.Command {
	var o webhookbench.Options
	c := &cobra.Command{
		Use:   "webhooks",
		Short: "Webhook deliveries and receiver acks a second, each beside its anchor",
		Long: "bench webhooks times --deliveries outbound deliveries (default 20,000) to a local HTTP server,\n" +
			"over 10 endpoints of the stock endpoint store (read by every attempt, its failure count on), signed,\n" +
			"with the stock ledger on, run by a worker of --concurrency slots (default 256), beside a\n" +
			"plain keep-alive net/http POST loop to the same server at the same concurrency, and the CPU time\n" +
			"each costs (this process's, and its database sessions' when the database runs on this machine).\n" +
			"Then it times\n" +
			"--requests inbound requests (default 10,000) from --senders at once (default 64) to a receiver,\n" +
			"each acknowledged after its durable commit, beside a naive receiver that commits one INSERT\n" +
			"per request, and the ack latency at --rate requests a second (default 500) for --rate-for (5s).\n" +
			"It removes its runs, ledger rows and table after.",
		Args: pipecli.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Deliveries < 0 || o.Concurrency < 0 || o.Requests < 0 || o.Senders < 0 || o.Rate < 0 || o.RateFor < 0 {
				return pipecli.UsageError(c, "--deliveries, --concurrency, --requests, --senders and --rate must not be negative")
			}
			o.Logger = slog.New(slog.NewTextHandler(env.Stderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			return runBench(env, c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
				return webhookbench.Run(ctx, pool, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.IntVar(&o.Deliveries, "deliveries", 0, "outbound deliveries timed (default 20000)")
	fl.IntVar(&o.Concurrency, "concurrency", 0, "outbound runs and anchor loops at once (default 256)")
	fl.IntVar(&o.Requests, "requests", 0, "inbound requests timed (default 10000)")
	fl.IntVar(&o.Senders, "senders", 0, "inbound senders at once (default 64)")
	fl.IntVar(&o.Rate, "rate", 0, "requests a second of the latency figure (default 500)")
	fl.DurationVar(&o.RateFor, "rate-for", 0, "how long the latency figure sends (default 5s)")
	return c
}
