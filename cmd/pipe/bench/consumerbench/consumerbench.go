// Package consumerbench measures a consumer: items a second through its
// handle and the cursor's save, for each batch size, beside the anchor — the
// same insert and cursor upsert in one transaction a batch from a plain
// loop, without pipe. The logic behind `pipe bench consumer`.
package consumerbench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// name is the consumer the bench declares; its rows are deleted before and
// after each figure.
const name = "pipe.bench.consumer"

// Options configure [Run].
type Options struct {
	// Items is how many items each key's feed holds.
	Items int
	// Keys is how many keys are followed at once, one run each.
	Keys int
	// Batches are the batch sizes measured, one figure pair each.
	Batches []int
	// Logger receives the bench worker's logs. Default none.
	Logger *slog.Logger
}

// Figure is one figure of Run.
type Figure struct {
	Name      string  `json:"name"`
	Line      string  `json:"line"`
	Batch     int     `json:"batch"`
	Items     int     `json:"items"`
	ElapsedMs float64 `json:"elapsedMs"`
	Rate      float64 `json:"rate"`
}

// Run measures, per batch size, the anchor and then the consumer, printing
// one line per figure to out. It creates the table pipe_bench_consumer and
// drops it after, with its runs and cursors.
func Run(ctx context.Context, pool *pgxpool.Pool, o Options, out io.Writer) ([]Figure, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if _, err := pool.Exec(ctx, `drop table if exists pipe_bench_consumer; create table pipe_bench_consumer (key text not null, n bigint not null)`); err != nil {
		return nil, err
	}
	defer func() {
		_ = clean(context.Background(), pool)
		_, _ = pool.Exec(context.Background(), `drop table if exists pipe_bench_consumer`)
	}()
	var figs []Figure
	for _, batch := range o.Batches {
		for _, anchor := range []bool{true, false} {
			if err := clean(ctx, pool); err != nil {
				return nil, err
			}
			run, label := runPipe, "consumer"
			if anchor {
				run, label = runAnchor, "anchor"
			}
			elapsed, err := run(ctx, pool, o, batch)
			if err != nil {
				return nil, err
			}
			n := o.Items * o.Keys
			f := Figure{Name: label, Batch: batch, Items: n, ElapsedMs: float64(elapsed) / float64(time.Millisecond), Rate: float64(n) / elapsed.Seconds()}
			f.Line = fmt.Sprintf("%s batch %d: %d items in %.2f s (%.0f items/s, %.0f batches/s)",
				label, batch, n, elapsed.Seconds(), f.Rate, f.Rate/float64(batch))
			fmt.Fprintln(out, f.Line)
			figs = append(figs, f)
		}
	}
	return figs, nil
}

func clean(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, `truncate pipe_bench_consumer;
		delete from pipe.consumer_cursors where consumer = 'pipe.bench.consumer';
		delete from pipe.events where job_id in (select id from pipe.jobs where name like 'pipe.bench.consumer%');
		delete from pipe.jobs where name like 'pipe.bench.consumer%'`)
	return err
}

// insert is both figures' effect: the batch into the table, in the
// transaction given.
func insert(ctx context.Context, tx pgx.Tx, key string, ns []int64) error {
	_, err := tx.Exec(ctx, `insert into pipe_bench_consumer select $1, unnest($2::bigint[])`, key, ns)
	return err
}
