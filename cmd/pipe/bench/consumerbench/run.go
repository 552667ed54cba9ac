package consumerbench

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/pipeline"
)

// benchFeed hands out the integers after a cursor up to a last one, as fast
// as they are asked for.
type benchFeed struct{ next, last int64 }

func (f *benchFeed) Read(_ context.Context, max int, _ time.Duration) ([]int64, error) {
	n := min(int64(max), f.last-f.next+1)
	out := make([]int64, n)
	for i := range out {
		out[i] = f.next + int64(i)
	}
	f.next += n
	if f.next > f.last {
		return out, io.EOF
	}
	return out, nil
}

func (f *benchFeed) Close() error { return nil }

// runPipe follows o.Keys feeds with a consumer and answers the time from
// the first enqueue to the last run done.
func runPipe(ctx context.Context, pool *pgxpool.Pool, o Options, batch int) (time.Duration, error) {
	c, err := consumer.New(consumer.Options[int64, int64]{
		Name: name,
		Keys: func(context.Context, pgx.Tx) ([]string, error) { return nil, nil },
		Open: func(_ context.Context, _ string, cursor int64) (consumer.Feed[int64], error) {
			return &benchFeed{next: cursor + 1, last: int64(o.Items)}, nil
		},
		Handle: func(ctx context.Context, tx pgx.Tx, key string, ns []int64) (int64, error) {
			return ns[len(ns)-1], insert(ctx, tx, key, ns)
		},
		Cursor: consumer.StoredCursor[int64](),
		Batch:  batch,
	})
	if err != nil {
		return 0, err
	}
	reg, err := pipeline.NewRegistry(c.Jobs()...)
	if err != nil {
		return 0, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{name: o.Keys},
		PollInterval: 10 * time.Millisecond, IdlePollMax: 20 * time.Millisecond, Logger: o.Logger})
	if err != nil {
		return 0, err
	}
	if err := w.Start(ctx); err != nil {
		return 0, err
	}
	defer func() {
		drain, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Shutdown(drain)
	}()
	start := time.Now()
	ids := make([]string, o.Keys)
	for k := range o.Keys {
		res, err := c.Enqueue(ctx, pool, "key-"+strconv.Itoa(k))
		if err != nil {
			return 0, err
		}
		ids[k] = res.ID
	}
	for _, id := range ids {
		state, err := await(ctx, pool, id)
		if err != nil {
			return 0, err
		}
		if state != "done" {
			return 0, fmt.Errorf("bench consumer: a run ended %s", state)
		}
	}
	return time.Since(start), nil
}

// runAnchor does the same work without pipe: per key, one transaction a
// batch holding the insert and the cursor's upsert.
func runAnchor(ctx context.Context, pool *pgxpool.Pool, o Options, batch int) (time.Duration, error) {
	start := time.Now()
	g, ctx := errgroup.WithContext(ctx)
	for k := range o.Keys {
		key := "key-" + strconv.Itoa(k)
		g.Go(func() error {
			f := &benchFeed{next: 1, last: int64(o.Items)}
			for f.next <= f.last {
				ns, _ := f.Read(ctx, batch, 0)
				err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
					if err := insert(ctx, tx, key, ns); err != nil {
						return err
					}
					_, err := tx.Exec(ctx, `insert into pipe.consumer_cursors (consumer, key, cursor) values ($1, $2, $3)
						on conflict (consumer, key) do update set cursor = excluded.cursor, saved_at = pipe.now()`,
						name, key, ns[len(ns)-1])
					return err
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	err := g.Wait()
	return time.Since(start), err
}

// await looks at the run every 100 ms, as `pipe import --wait` does, until
// it leaves the live states, and answers its state.
func await(ctx context.Context, pool *pgxpool.Pool, id string) (string, error) {
	adm := pipeline.NewAdmin(pool)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		d, err := adm.Show(ctx, id)
		if err != nil {
			return "", err
		}
		if !d.State.Live() {
			return string(d.State), nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-tick.C:
		}
	}
}
