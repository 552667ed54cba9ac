package pipecli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/outbox"
)

func (a *app) outboxCommand() *cobra.Command {
	return group("outbox", "Watch the transactional outbox, retry dead messages, prune published ones",
		a.outboxStatusCommand(),
		a.outboxRetryCommand(),
		a.outboxPruneCommand(),
	)
}

// withPool runs fn on a pool of the migrated database.
func (a *app) withPool(ctx context.Context, fn func(*pgxpool.Pool) error) error {
	pool, err := a.connect(ctx, migrated)
	if err != nil {
		return err
	}
	defer pool.Close()
	return fn(pool)
}

func (a *app) outboxStatusCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Each stream's lag (rows and seconds), oldest unpublished row, publish rate, dead and held rows",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.withPool(c.Context(), func(pool *pgxpool.Pool) error {
				ss, err := outbox.Status(c.Context(), pool)
				if err != nil {
					return err
				}
				if a.json {
					if ss == nil {
						ss = []outbox.StreamStatus{}
					}
					return printJSON(a.stdout, ss)
				}
				return a.renderOutbox(ss)
			})
		},
	}
}

func (a *app) renderOutbox(ss []outbox.StreamStatus) error {
	if len(ss) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no outbox rows")
		return err
	}
	t := newTable(a.stdout, "STREAM", "LAG ROWS", "LAG", "OLDEST UNPUBLISHED", "PUBLISHED/S", "DEAD", "HELD", "RELEASED")
	for _, s := range ss {
		oldest := "-"
		if s.OldestUnpublished != nil {
			oldest = s.OldestUnpublished.UTC().Format("2006-01-02 15:04:05Z")
		}
		t.row(s.Stream, count(s.LagRows), strconv.FormatFloat(s.LagSeconds, 'f', 1, 64)+"s", oldest,
			strconv.FormatFloat(s.PublishedPerSecond, 'f', 1, 64), count(s.Dead), count(s.Held), count(s.Released))
	}
	return t.flush()
}

func (a *app) outboxRetryCommand() *cobra.Command {
	var keys []string
	c := &cobra.Command{
		Use:   "retry STREAM",
		Short: "Release a stream's dead messages and those held behind them, for the relay to publish in order",
		Long: "retry releases the stream's dead rows (the broker refused them) and the rows held behind\n" +
			"them — of the --key keys only, when given — once the cause is mended (the broker takes\n" +
			"the message now). The relay publishes them in their order ahead of the stream's new rows.",
		Args: exactArgs("STREAM"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withPool(c.Context(), func(pool *pgxpool.Pool) error {
				n, err := outbox.Retry(c.Context(), pool, args[0], keys...)
				if err != nil {
					return err
				}
				text := fmt.Sprintf("released %d row(s)", n)
				if n == 0 {
					text += ": the stream has no dead or held messages (pipe outbox status shows each stream's)"
				}
				return a.emit(map[string]int64{"released": n}, text)
			})
		},
	}
	c.Flags().StringSliceVar(&keys, "key", nil, "release only this key's rows (repeat or comma-separate)")
	return c
}

func (a *app) outboxPruneCommand() *cobra.Command {
	var retain string
	c := &cobra.Command{
		Use:   "prune",
		Short: "Delete the rows published longer ago than --retain, once",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			d, err := retentionFlag(c, "retain", retain)
			if err != nil {
				return err
			}
			return a.withPool(c.Context(), func(pool *pgxpool.Pool) error {
				n, err := outbox.Prune(c.Context(), pool, d)
				if err != nil {
					return err
				}
				return a.emit(map[string]int64{"pruned": n}, fmt.Sprintf("pruned %d published row(s)", n))
			})
		},
	}
	c.Flags().StringVar(&retain, "retain", "", "how long published rows are kept, such as 24h or 7d (default 24h)")
	return c
}
