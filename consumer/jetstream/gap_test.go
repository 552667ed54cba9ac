package jetstream_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/jetstream"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A delivery the feed never saw — another client pulled it from the key's
// durable — leaves a gap in the consumer sequence: the read fails with
// X_CONSUMER_SOURCE_UNAVAILABLE (retried) rather than hand over the messages
// after it, and so does every later read of the feed; the feed reopened at
// the cursor delivers every message after it, the stolen one in its place.
func TestAMissedDeliveryFailsTheRead(t *testing.T) {
	st := newStream(t)
	ctx := context.Background()
	for range 10 {
		st.publish(t, "k", "m")
	}
	src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name, AckWait: time.Minute})
	f, err := src.Open(ctx, "k", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := f.Read(ctx, 3, time.Second); err != nil || !slices.Equal(seqs(got), []uint64{1, 2, 3}) {
		t.Fatalf("read %v (%v)", seqs(got), err)
	}
	if err := steal(st, jetstream.DurableName("k")); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		got, err := f.Read(ctx, 10, time.Second)
		if !errors.Is(err, errcode.ConsumerSourceUnavailable) || len(got) != 0 {
			t.Fatalf("read %d after the gap: %v (%v); want nothing and X_CONSUMER_SOURCE_UNAVAILABLE", i, seqs(got), err)
		}
	}
	again, err := src.Open(ctx, "k", 3)
	if err != nil {
		t.Fatal(err)
	}
	if all := readAll(t, again, 7); !slices.Equal(seqs(all), []uint64{4, 5, 6, 7, 8, 9, 10}) {
		t.Fatalf("the reopened feed read %v; want 4..10", seqs(all))
	}
}

// In a run, the gap fails the attempt, and the next attempt reopens at the
// cursor: every message is handled exactly once, the stolen one too.
func TestAMissedDeliveryIsRetriedFromTheCursor(t *testing.T) {
	st := newStream(t)
	pool := fixtures.DB(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `create table effects (key text not null, seq bigint not null)`); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		st.publish(t, "k", "m")
	}
	src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name, AckWait: time.Minute})
	stolen := false
	c := consumer.MustNew(consumer.Options[jetstream.Message, uint64]{
		Name: "gap",
		Keys: func(context.Context, pgx.Tx) ([]string, error) { return []string{"k"}, nil },
		Open: src.Open,
		Handle: func(ctx context.Context, tx pgx.Tx, key string, msgs []jetstream.Message) (uint64, error) {
			if !stolen { // between two reads: no pull of the run's is waiting
				stolen = true
				if err := steal(st, jetstream.DurableName("k")); err != nil {
					return 0, err
				}
			}
			return insertEffects(ctx, tx, key, msgs)
		},
		Cursor: consumer.StoredCursor[uint64](),
		Batch:  5,
		Job:    pipeline.JobOptions[consumer.Input, consumer.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	})
	res, err := c.Enqueue(ctx, pool, "k")
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	awaitTrue(t, func() bool { return storedCursor(t, pool, "k") == 20 })
	var n, distinct int
	if err := pool.QueryRow(ctx, `select count(*), count(distinct seq) from effects`).Scan(&n, &distinct); err != nil || n != 20 || distinct != 20 {
		t.Fatalf("%d effects, %d distinct (%v); want 1..20 once", n, distinct, err)
	}
	d, err := fixtureShow(pool, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The second attempt's first commit gave back the attempt the first spent.
	failed := 0
	for _, e := range d.Journal {
		if e.Kind == "attempt.failed" {
			failed++
		}
	}
	if failed != 1 || d.Attempt != 1 || d.LastError == nil || d.LastError.Code != string(errcode.ConsumerSourceUnavailable) {
		t.Fatalf("%d failed attempts, attempt %d, last error %+v; want one failed with X_CONSUMER_SOURCE_UNAVAILABLE, given back", failed, d.Attempt, d.LastError)
	}
}

// steal pulls one message from the named durable, as another client would.
func steal(st *stream, durable string) error {
	cons, err := st.js.Consumer(context.Background(), st.name, durable)
	if err != nil {
		return err
	}
	b, err := cons.FetchNoWait(1)
	if err != nil {
		return err
	}
	n := 0
	for range b.Messages() {
		n++
	}
	if n != 1 || b.Error() != nil {
		return fmt.Errorf("stole %d messages (%v); want one", n, b.Error())
	}
	return nil
}

// insertEffects writes one effect row per message and answers the cursor.
func insertEffects(ctx context.Context, tx pgx.Tx, key string, msgs []jetstream.Message) (uint64, error) {
	for _, m := range msgs {
		if _, err := tx.Exec(ctx, `insert into effects values ($1, $2)`, key, m.Sequence); err != nil {
			return 0, err
		}
	}
	return jetstream.Cursor(msgs), nil
}
