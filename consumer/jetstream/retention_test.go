package jetstream_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/jetstream"
	"github.com/pipekit/pipe/errcode"
)

// On a stream of every retention, a feed reopened at the cursor delivers
// the message after it at once and in order, though an earlier feed was
// handed it and died unacknowledged — the durable is replaced at the cursor,
// not left to redeliver after its acknowledgement wait (a minute here)
// behind later messages — and no message after the cursor is lost: on an
// Interest stream deleting the only durable would drop them all. One durable
// of the key remains. Once the batch is reported committed, an Interest or
// WorkQueue stream holds nothing more (every message acknowledged), and a
// WorkQueue stream has already removed the messages up to the cursor, which
// it delivers again and the feed acknowledges.
func TestAReopenedFeedStartsAtTheCursor(t *testing.T) {
	for _, r := range retentions {
		t.Run(r.name, func(t *testing.T) {
			st := newStreamOf(t, r.RetentionPolicy)
			ctx := context.Background()
			src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name, AckWait: time.Minute})
			dead, err := src.Open(ctx, "k", 0) // first: an Interest stream keeps nothing nobody follows
			if err != nil {
				t.Fatal(err)
			}
			for range 10 {
				st.publish(t, "k", "m")
			}
			got, err := dead.Read(ctx, 5, time.Second)
			if err != nil || !slices.Equal(seqs(got), []uint64{1, 2, 3, 4, 5}) {
				t.Fatalf("first feed read %v (%v)", seqs(got), err)
			}
			// The run dies with 1..5 in hand, 1..3 committed.
			again, err := src.Open(ctx, "k", 3)
			if err != nil {
				t.Fatal(err)
			}
			all := readAll(t, again, 7)
			if !slices.Equal(seqs(all), []uint64{4, 5, 6, 7, 8, 9, 10}) {
				t.Fatalf("the reopened feed read %v; want 4..10 in order", seqs(all))
			}
			if got, err := again.Read(ctx, 4, consumer.Linger); err != nil || len(got) != 0 {
				t.Fatalf("a caught-up feed read %v (%v); want nothing after the wait", seqs(got), err)
			}
			if d := st.durables(t); len(d) != 1 {
				t.Fatalf("durables %v after the reopen; want the key's one", d)
			}
			if r.RetentionPolicy == js.WorkQueuePolicy {
				awaitTrue(t, func() bool { return st.messages(t) == 7 })
			}
			if err := again.(consumer.Committer[jetstream.Message]).Committed(ctx, all); err != nil {
				t.Fatal(err)
			}
			want := uint64(0)
			if r.RetentionPolicy == js.LimitsPolicy {
				want = 10
			}
			awaitTrue(t, func() bool { return st.messages(t) == want })
		})
	}
}

// An open that died after it created the replacement and before it deleted
// the durable replaced (both exist, the replacement at the cursor) loses
// nothing on an Interest stream: the next open delivers every message after
// the cursor, in order, and leaves one durable of the key.
func TestAnOpenThatDiedMidReplaceLosesNothing(t *testing.T) {
	st := newStreamOf(t, js.InterestPolicy)
	ctx := context.Background()
	src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name, AckWait: time.Minute})
	first, err := src.Open(ctx, "k", 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		st.publish(t, "k", "m")
	}
	if got, err := first.Read(ctx, 5, time.Second); err != nil || len(got) != 5 {
		t.Fatalf("first feed read %v (%v)", seqs(got), err)
	}
	s, err := st.js.Stream(ctx, st.name)
	if err != nil {
		t.Fatal(err)
	}
	name := jetstream.DurableName("k") + "~b"
	if _, err := s.CreateConsumer(ctx, js.ConsumerConfig{Durable: name, AckPolicy: js.AckAllPolicy,
		DeliverPolicy: js.DeliverByStartSequencePolicy, OptStartSeq: 3}); err != nil {
		t.Fatal(err)
	}
	again, err := src.Open(ctx, "k", 3)
	if err != nil {
		t.Fatal(err)
	}
	if all := readAll(t, again, 7); !slices.Equal(seqs(all), []uint64{4, 5, 6, 7, 8, 9, 10}) {
		t.Fatalf("the reopened feed read %v; want 4..10 in order", seqs(all))
	}
	if d := st.durables(t); len(d) != 1 {
		t.Fatalf("durables %v after the reopen; want the key's one", d)
	}
}

// On a WorkQueue stream, whose every message goes to one consumer, a key
// whose subjects another key's durable reads already — here both read the
// whole stream — is refused at open with a terminal
// X_CONSUMER_SOURCE_INVALID, not retried for ever.
func TestAWorkQueueRefusesKeysThatShareSubjects(t *testing.T) {
	st := newStreamOf(t, js.WorkQueuePolicy)
	src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name})
	if _, err := src.Open(context.Background(), "a", 0); err != nil {
		t.Fatal(err)
	}
	_, err := src.Open(context.Background(), "b", 0)
	if !errors.Is(err, errcode.ConsumerSourceInvalid) || errcode.Classify(err) != errcode.Terminal {
		t.Fatalf("a second key over the same subjects: %v; want terminal X_CONSUMER_SOURCE_INVALID", err)
	}
}

// readAll reads f until it has handed over n messages.
func readAll(t *testing.T, f consumer.Feed[jetstream.Message], n int) []jetstream.Message {
	t.Helper()
	var all []jetstream.Message
	for len(all) < n {
		got, err := f.Read(context.Background(), 4, 2*time.Second)
		if err != nil || len(got) == 0 {
			t.Fatalf("the feed read %v (%v) after %v", seqs(got), err, seqs(all))
		}
		all = append(all, got...)
	}
	return all
}
