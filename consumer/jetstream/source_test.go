package jetstream_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/jetstream"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
)

// A consumer with one key per account follows a real stream: each key
// handles exactly its subject's messages, once and in stream order, the
// cursor is the last one's sequence, the durable's acknowledgement floor
// follows the cursor, and the lag comes down to zero.
func TestConsumerFollowsAStreamPerKey(t *testing.T) {
	st := newStream(t)
	pool := fixtures.DB(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `create table effects (key text not null, seq bigint not null)`); err != nil {
		t.Fatal(err)
	}
	want := map[string][]uint64{}
	for i := range 120 {
		key := []string{"acct-a", "acct-b", "acct-b"}[i%3]
		want[key] = append(want[key], st.publish(t, "orders."+key, "order"))
		if i%10 == 0 {
			st.publish(t, "refunds."+key, "not followed")
		}
	}
	src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name,
		Subjects: func(key string) []string { return []string{st.prefix + ".orders." + key} }})
	c := consumer.MustNew(consumer.Options[jetstream.Message, uint64]{
		Name: "orders.nats",
		Keys: func(context.Context, pgx.Tx) ([]string, error) { return []string{"acct-a", "acct-b"}, nil },
		Open: src.Open,
		Lag:  src.Lag,
		Handle: func(ctx context.Context, tx pgx.Tx, key string, msgs []jetstream.Message) (uint64, error) {
			for _, m := range msgs {
				if _, err := tx.Exec(ctx, `insert into effects values ($1, $2)`, key, m.Sequence); err != nil {
					return 0, err
				}
			}
			return jetstream.Cursor(msgs), nil
		},
		Cursor:   consumer.StoredCursor[uint64](),
		Batch:    25,
		LagEvery: time.Second,
	})
	if _, err := c.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	for key, seqs := range want {
		last := seqs[len(seqs)-1]
		deadline := time.Now().Add(30 * time.Second)
		for storedCursor(t, pool, key) != last {
			if time.Now().After(deadline) {
				var state, errs string
				_ = pool.QueryRow(ctx, `select state, coalesce(last_error::text, '') from pipe.jobs where input->>'key' = $1`, key).Scan(&state, &errs)
				t.Fatalf("key %s: cursor %d, want %d; run %s %s", key, storedCursor(t, pool, key), last, state, errs)
			}
			time.Sleep(10 * time.Millisecond)
		}
		rows, _ := pool.Query(ctx, `select seq from effects where key = $1 order by seq`, key)
		got, err := pgx.CollectRows(rows, pgx.RowTo[uint64])
		if err != nil || !slices.Equal(got, seqs) {
			t.Fatalf("key %s handled %v (%v); want %v", key, got, err, seqs)
		}
		cons, err := st.js.Consumer(ctx, st.name, jetstream.DurableName(key))
		if err != nil {
			t.Fatal(err)
		}
		awaitTrue(t, func() bool {
			info, err := cons.Info(ctx)
			return err == nil && info.AckFloor.Stream == last && info.NumAckPending == 0
		})
	}
	awaitTrue(t, func() bool {
		var id string
		if err := pool.QueryRow(ctx, `select id::text from pipe.jobs where name = 'orders.nats' and input->>'key' = 'acct-b'`).Scan(&id); err != nil {
			return false
		}
		d, err := fixtureShow(pool, id)
		if err != nil {
			return false
		}
		s, ok := consumer.StatusOf(d)
		return ok && s.Lag != nil && *s.Lag == 0 && s.Items == int64(len(want["acct-b"]))
	})
}

// A redelivery (the acknowledgement wait passed with the batch in hand) of
// what the feed already handed over is skipped; new messages follow.
func TestARedeliveryIsSkipped(t *testing.T) {
	st := newStream(t)
	ctx := context.Background()
	for range 3 {
		st.publish(t, "k", "m")
	}
	src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name, AckWait: 200 * time.Millisecond})
	f, err := src.Open(ctx, "k", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := f.Read(ctx, 10, time.Second); err != nil || len(got) != 3 {
		t.Fatalf("read %v (%v)", seqs(got), err)
	}
	cons, err := st.js.Consumer(ctx, st.name, jetstream.DurableName("k"))
	if err != nil {
		t.Fatal(err)
	}
	awaitTrue(t, func() bool {
		if got, err := f.Read(ctx, 10, 300*time.Millisecond); err != nil || len(got) != 0 {
			t.Fatalf("read %v (%v) while only redeliveries came", seqs(got), err)
		}
		info, err := cons.Info(ctx)
		return err == nil && info.Delivered.Consumer > 3
	})
	for range 2 {
		st.publish(t, "k", "m")
	}
	got, err := f.Read(ctx, 10, 2*time.Second)
	if err != nil || !slices.Equal(seqs(got), []uint64{4, 5}) {
		t.Fatalf("read %v (%v); want the new 4 and 5 only", seqs(got), err)
	}
}

// A stream that does not exist is X_CONSUMER_SOURCE_INVALID when the feed
// opens; a declaration without a stream is X_CONSUMER_INVALID.
func TestAMissingStreamIsRefused(t *testing.T) {
	st := newStream(t)
	src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name + "_NOPE"})
	if _, err := src.Open(context.Background(), "k", 0); !errors.Is(err, errcode.ConsumerSourceInvalid) {
		t.Fatalf("Open: %v", err)
	}
	if _, err := jetstream.New(st.nc, jetstream.Options{}); !errors.Is(err, errcode.ConsumerInvalid) {
		t.Fatalf("New: %v", err)
	}
}

// A Durable answering a name with "~" (the source's alternate names end in
// "~b") or one NATS refuses is X_CONSUMER_INVALID when the feed opens.
func TestADurableNameTheSourceCannotUseIsRefused(t *testing.T) {
	st := newStream(t)
	for _, name := range []string{"a~b", "a.b", ""} {
		src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name, Durable: func(string) string { return name }})
		if _, err := src.Open(context.Background(), "k", 0); !errors.Is(err, errcode.ConsumerInvalid) {
			t.Fatalf("Open with the durable name %q: %v", name, err)
		}
	}
}

// Default durable names keep a NATS-safe key as it is and make any other
// safe and distinct.
func TestDurableNames(t *testing.T) {
	if n := jetstream.DurableName("acct-1_b"); n != "pipe_acct-1_b" {
		t.Fatalf("safe key: %s", n)
	}
	a, b := jetstream.DurableName("a.b"), jetstream.DurableName("a*b")
	if a == b || a[:8] != "pipe_a_b" {
		t.Fatalf("unsafe keys: %s and %s", a, b)
	}
}
