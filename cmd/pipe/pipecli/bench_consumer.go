package pipecli

import (
	"context"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"
)

// benchConsumerName is the consumer `pipe bench consumer` declares; its rows
// are deleted before and after each figure.
const benchConsumerName = "pipe.bench.consumer"

// benchConsumerOptions are `pipe bench consumer`'s flags.
type benchConsumerOptions struct {
	Items   int
	Keys    int
	Batches []int
}

func (a *app) benchConsumerCommand() *cobra.Command {
	o := benchConsumerOptions{}
	c := &cobra.Command{
		Use:   "consumer",
		Short: "Measure a consumer: items a second through handle and the cursor save",
		Long: "bench consumer follows --keys feeds of --items items each (generated in memory) with a consumer\n" +
			"whose handle inserts each batch into the table pipe_bench_consumer and whose cursor is kept in\n" +
			"pipe, one transaction a batch, for each --batch size; beside it, the anchor: the same insert and\n" +
			"cursor upsert in one transaction a batch from a plain loop, without pipe. It prints one line per\n" +
			"figure, deletes its runs and cursors, and drops the table after.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Items < 1 || o.Keys < 1 || len(o.Batches) == 0 {
				return usageError(c, "--items, --keys and --batch must be 1 or more")
			}
			for _, b := range o.Batches {
				if b < 1 {
					return usageError(c, "--batch sizes must be 1 or more")
				}
			}
			return a.runBench(c, func(ctx context.Context, pool *pgxpool.Pool, out io.Writer) (any, error) {
				return a.runConsumerBench(ctx, pool, o, out)
			})
		},
	}
	fl := c.Flags()
	fl.IntVar(&o.Items, "items", 100_000, "items per key")
	fl.IntVar(&o.Keys, "keys", 1, "keys followed at once, one run each")
	fl.IntSliceVar(&o.Batches, "batch", []int{100, 1000}, "batch sizes, comma-separated")
	return c
}

// consumerFigure is one figure of `pipe bench consumer`.
type consumerFigure struct {
	Name      string  `json:"name"`
	Line      string  `json:"line"`
	Batch     int     `json:"batch"`
	Items     int     `json:"items"`
	ElapsedMs float64 `json:"elapsedMs"`
	Rate      float64 `json:"rate"`
}

func (a *app) runConsumerBench(ctx context.Context, pool *pgxpool.Pool, o benchConsumerOptions, out io.Writer) ([]consumerFigure, error) {
	if _, err := pool.Exec(ctx, `drop table if exists pipe_bench_consumer; create table pipe_bench_consumer (key text not null, n bigint not null)`); err != nil {
		return nil, err
	}
	defer func() {
		_ = cleanConsumerBench(context.Background(), pool)
		_, _ = pool.Exec(context.Background(), `drop table if exists pipe_bench_consumer`)
	}()
	var figs []consumerFigure
	for _, batch := range o.Batches {
		for _, anchor := range []bool{true, false} {
			if err := cleanConsumerBench(ctx, pool); err != nil {
				return nil, err
			}
			run, name := benchConsumerPipe, "consumer"
			if anchor {
				run, name = benchConsumerAnchor, "anchor"
			}
			elapsed, err := run(ctx, a, pool, o, batch)
			if err != nil {
				return nil, err
			}
			n := o.Items * o.Keys
			f := consumerFigure{Name: name, Batch: batch, Items: n, ElapsedMs: ms(elapsed), Rate: float64(n) / elapsed.Seconds()}
			f.Line = fmt.Sprintf("%s batch %d: %d items in %.2f s (%.0f items/s, %.0f batches/s)",
				name, batch, n, elapsed.Seconds(), f.Rate, f.Rate/float64(batch))
			fmt.Fprintln(out, f.Line)
			figs = append(figs, f)
		}
	}
	return figs, nil
}

func cleanConsumerBench(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, `truncate pipe_bench_consumer;
		delete from pipe.consumer_cursors where consumer = 'pipe.bench.consumer';
		delete from pipe.events where job_id in (select id from pipe.jobs where name like 'pipe.bench.consumer%');
		delete from pipe.jobs where name like 'pipe.bench.consumer%'`)
	return err
}

// benchInsert is both figures' effect: the batch into the table, the cursor
// upserted, in the transaction given.
func benchInsert(ctx context.Context, tx pgx.Tx, key string, ns []int64) error {
	_, err := tx.Exec(ctx, `insert into pipe_bench_consumer select $1, unnest($2::bigint[])`, key, ns)
	return err
}
