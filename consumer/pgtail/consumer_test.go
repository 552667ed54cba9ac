package pgtail_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
)

// A consumer over a table tail while eight writers commit out of order —
// each holds its transaction open a random while, one in ten rolls back —
// handles every committed row exactly once, in id order, and no other.
func TestConsumerOverATableWrittenOutOfOrder(t *testing.T) {
	pool := setup(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `create table effects (seq bigserial primary key, id bigint not null)`); err != nil {
		t.Fatal(err)
	}
	c := effectsConsumer(pool, 7)
	if _, err := c.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	cfg := pool.Config()
	cfg.MaxConns = 12
	writers, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer writers.Close()
	committed, inversions := writeOutOfOrder(t, writers, 8, 25)
	if inversions == 0 {
		t.Fatal("no transaction committed after a later id's: the test proved nothing")
	}
	deadline := time.Now().Add(60 * time.Second)
	for handledCount(t, pool) < len(committed) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	rows, err := pool.Query(ctx, `select id from effects order by seq`)
	if err != nil {
		t.Fatal(err)
	}
	handled, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(handled) {
		t.Fatalf("rows handled out of id order: %v", handled)
	}
	slices.Sort(committed)
	if !slices.Equal(handled, committed) {
		t.Fatalf("handled %d rows %v; committed %d %v", len(handled), handled, len(committed), committed)
	}
}

// writeOutOfOrder runs writers goroutines of n transactions each, holding
// each open a seeded random while; it answers the ids committed, and how
// many of them committed after a larger id had.
// effectsConsumer follows the events table as one key, inserting each row's
// id into effects with the cursor, batch rows at a time.
func effectsConsumer(pool *pgxpool.Pool, batch int) *consumer.Consumer[pgtail.Row[event], int64] {
	tail := pgtail.MustNew(pool, pgtail.Options[event]{Table: pg.Relation{Name: "events"}, Poll: 2 * time.Millisecond})
	return consumer.MustNew(consumer.Options[pgtail.Row[event], int64]{
		Name: "events",
		Keys: func(context.Context, pgx.Tx) ([]string, error) { return []string{"all"}, nil },
		Open: tail.Open,
		Handle: func(ctx context.Context, tx pgx.Tx, _ string, rows []pgtail.Row[event]) (int64, error) {
			for _, r := range rows {
				if _, err := tx.Exec(ctx, `insert into effects (id) values ($1)`, r.ID); err != nil {
					return 0, err
				}
			}
			return pgtail.Cursor(rows), nil
		},
		Cursor: consumer.StoredCursor[int64](),
		Lag:    tail.Lag,
		Batch:  batch,
	})
}

func writeOutOfOrder(t *testing.T, pool *pgxpool.Pool, writers, n int) ([]int64, int) {
	t.Helper()
	var mu sync.Mutex
	var committed []int64 // in commit order
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 8))
			for range n {
				id, keep, err := writeOne(pool, rng)
				if err != nil {
					t.Error(err)
					return
				}
				if keep {
					mu.Lock()
					committed = append(committed, id)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	inversions, top := 0, int64(0)
	for _, id := range committed {
		if id < top {
			inversions++
		}
		top = max(top, id)
	}
	return committed, inversions
}

func writeOne(pool *pgxpool.Pool, rng *rand.Rand) (int64, bool, error) {
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback(ctx)
	var id int64
	if err := tx.QueryRow(ctx, `insert into events (account, body) values ('a', 'b') returning id`).Scan(&id); err != nil {
		return 0, false, err
	}
	time.Sleep(time.Duration(rng.IntN(15)) * time.Millisecond)
	if rng.IntN(10) == 0 {
		return id, false, tx.Rollback(ctx)
	}
	return id, true, tx.Commit(ctx)
}

func handledCount(t *testing.T, pool *pgxpool.Pool) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), `select count(*) from effects`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
