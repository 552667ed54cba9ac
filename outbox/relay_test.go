package outbox_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
)

// Eight app transactions staging messages and committing out of order —
// each held open a random while, one in ten rolled back — are published to
// JetStream each exactly once, in the order of their rows, and no
// rolled-back message is.
func TestRelayPublishesCommittedMessagesInOrder(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	js := newJSStream(t, sharedNATS(t), 0)
	relay := outbox.MustNew(outbox.Options{Streams: []outbox.Stream{{Name: "orders"}}, Publisher: js.publisher(t), Batch: 7})
	if _, err := relay.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, relay.Jobs()...)
	committed, inversions := stageOutOfOrder(t, pool, 8, 25)
	if inversions == 0 {
		t.Fatal("no transaction committed after a later row's: the test proved nothing")
	}
	waitFor(t, "every committed message published", func() bool {
		return count(t, pool, `select count(*) from pipe.outbox o where `+published) == len(committed)
	})
	got := js.messages(t)
	var want []string
	rows, _ := pool.Query(ctx, `select message_id::text from pipe.outbox order by id`)
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		want = append(want, id)
	}
	var ids []string
	for _, m := range got {
		ids = append(ids, m.id)
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("JetStream holds %d messages; want the %d committed, once each, in row order", len(ids), len(want))
	}
	if len(want) != len(committed) {
		t.Fatalf("outbox holds %d rows; %d were committed", len(want), len(committed))
	}
}

// stageOutOfOrder runs writers goroutines of n transactions each, staging a
// message and holding the transaction open a seeded random while, one in
// ten rolled back; it answers the message ids committed and how many
// committed after a later row had.
func stageOutOfOrder(t *testing.T, pool *pgxpool.Pool, writers, n int) ([]string, int) {
	t.Helper()
	cfg := pool.Config()
	cfg.MaxConns = int32(writers + 2)
	wp, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer wp.Close()
	var mu sync.Mutex
	var committed []string
	var rowOrder []int64
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 21))
			for i := range n {
				id, row, keep, err := stageOne(wp, rng, fmt.Sprintf("w%d-%d", w, i))
				if err != nil {
					t.Error(err)
					return
				}
				if keep {
					mu.Lock()
					committed, rowOrder = append(committed, id), append(rowOrder, row)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	inversions, top := 0, int64(0)
	for _, r := range rowOrder {
		if r < top {
			inversions++
		}
		top = max(top, r)
	}
	return committed, inversions
}

func stageOne(pool *pgxpool.Pool, rng *rand.Rand, body string) (string, int64, bool, error) {
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		return "", 0, false, err
	}
	defer tx.Rollback(ctx)
	id, err := outbox.Stage(ctx, tx, outbox.Message{Stream: "orders", Key: body[:2], Payload: []byte(body)})
	if err != nil {
		return "", 0, false, err
	}
	var row int64
	if err := tx.QueryRow(ctx, `select id from pipe.outbox where message_id = $1`, id).Scan(&row); err != nil {
		return "", 0, false, err
	}
	time.Sleep(time.Duration(rng.IntN(15)) * time.Millisecond)
	if rng.IntN(10) == 0 {
		return id, row, false, tx.Rollback(ctx)
	}
	return id, row, true, tx.Commit(ctx)
}
