// Package bench is the stock pipe's bench room: the `pipe bench` commands
// and, in its sub-packages, the harnesses behind them (jobbench, filebench,
// consumerbench, subjectbench, rollupbench, outboxbench, webhookbench, backfillbench, storebench, idlebench), which import the factories they
// measure. Only the stock binary links it — cmd/pipe adds [Command] through
// pipecli.Options.Commands and calls [HelperMain] — so an application that
// embeds pipecli does not carry the benches.
//
//	pipe bench jobs        enqueue, work, steps and pickup latency of the job core
//	pipe bench import      pipe import beside COPY + upsert, with its peak memory
//	pipe bench export      pipe export beside COPY TO, with its peak memory
//	pipe bench consumer    a consumer's items a second beside a plain loop
//	pipe bench subject     the erase and export of one person among 1,000,000 rows
//	pipe bench rollup      a rollup's run at 1M and 10M rows of source
//	pipe bench outbox      the outbox relay to JetStream beside the spec's loop, staging, lag
//	pipe bench webhooks    deliveries and receiver acks a second beside plain HTTP and a naive receiver
//	pipe bench backfill    a backfill pass beside the single UPDATE, an app writing meanwhile
//	pipe bench store       the job store at 10M finished runs: reads, claims, sizes, a day's drop
//	pipe bench idle        transactions and CPU a minute of idle components, the relay's woken pickup
//
// The anchors the figures stand beside (River, DBOS, psql, pgloader) are in
// the repository's bench/anchors, and bench/run-anchors.sh runs them and
// `pipe bench` side by side.
package bench

import (
	"context"
	"io"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench/filebench"
	"github.com/pipekit/pipe/cmd/pipe/bench/jobbench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/errcode"
)

// Command answers `pipe bench` and its subcommands, for
// pipecli.Options.Commands.
func Command(env pipecli.Env) *cobra.Command {
	return pipecli.Group("bench", "Measure pipe against the database", jobsCommand(env), importCommand(env), exportCommand(env),
		consumerCommand(env), subjectCommand(env), rollupCommand(env), outboxCommand(env), webhooksCommand(env),
		backfillCommand(env), storeCommand(env), idleCommand(env))
}

// HelperMain makes the program able to serve as the benches' helper
// processes: `pipe bench jobs` re-executes it to enqueue from another
// process, `pipe bench import` and `export` to run the work alone (and an
// idle pipe beside it) so that its peak memory is measured. Call it first
// thing in main (a test binary, in TestMain); started as a helper it serves
// and exits, otherwise it returns at once.
func HelperMain() {
	jobbench.HelperMain()
	filebench.HelperMain()
}

// runBench connects, runs one bench with the stream its lines go to (none
// under --json) and, under --json, prints the figures it answers.
func runBench(env pipecli.Env, c *cobra.Command, run func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error)) error {
	pool, err := env.Connect(c.Context())
	if err != nil {
		return err
	}
	defer pool.Close()
	out := env.Stdout()
	if env.JSON() {
		out = io.Discard
	}
	res, err := run(c.Context(), pool, out)
	if err != nil {
		return benchErr(err)
	}
	if env.JSON() {
		return env.PrintJSON(res)
	}
	return nil
}

// benchErr codes the bench's plain errors; its messages name figures and
// settings, not data.
func benchErr(err error) error {
	if _, ok := errcode.As(err); ok {
		return err
	}
	return errcode.Wrap(err, errcode.Invariant, "%v", err).
		WithFix("see `pipe bench jobs --help`; a figure that stalled says so, and its rows were cleaned")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
