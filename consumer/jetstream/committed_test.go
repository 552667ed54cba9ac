package jetstream_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/jetstream"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// wrapped is an app's wrapper of the source's feed with no Committed of its
// own: the run cannot tell the source's feed of a commit through it.
type wrapped struct {
	consumer.Feed[jetstream.Message]
}

// deafWrapped has a Committed — for the app's own bookkeeping — that does
// not pass the commit on to the source's feed.
type deafWrapped struct {
	consumer.Feed[jetstream.Message]
}

func (deafWrapped) Committed(context.Context, []jetstream.Message) error { return nil }

// A wrapper without Committed is refused before it is read: dead at once
// with X_CONSUMER_FEED_INVALID, nothing handled, rather than stall at
// MaxAckPending.
func TestAWrapperWithoutCommittedIsRefused(t *testing.T) {
	st, pool := newStream(t), fixtures.DB(t)
	src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name, MaxAckPending: 10})
	id := runWrapped(t, pool, src, func(f consumer.Feed[jetstream.Message]) consumer.Feed[jetstream.Message] { return wrapped{f} })
	for range 30 {
		st.publish(t, "k", "m")
	}
	d := fixtures.AwaitSettled(t, pool, id)
	if d.State != "dead" || d.Attempt != 1 || d.LastError == nil || d.LastError.Code != string(errcode.ConsumerFeedInvalid) {
		t.Fatalf("%s on attempt %d (%+v); want dead at once with X_CONSUMER_FEED_INVALID", d.State, d.Attempt, d.LastError)
	}
	if c := storedCursor(t, pool, "k"); c != 0 {
		t.Fatalf("cursor %d; the refused feed was read", c)
	}
}

// A wrapper whose Committed does not pass the commit on acknowledges
// nothing: the server stops delivering once MaxAckPending (10) messages wait
// for their acknowledgement. The feed notices — a read found nothing with
// 10 handed over, and the next came with no commit reported — and fails the
// run with X_CONSUMER_FEED_INVALID, naming the fix, instead of waiting for
// ever: the 10 handled are committed, the other 20 wait, unacknowledged, for
// a fixed run.
func TestCommitsThatNeverReachTheFeedFailTheRun(t *testing.T) {
	st, pool := newStream(t), fixtures.DB(t)
	src := jetstream.MustNew(st.nc, jetstream.Options{Stream: st.name, MaxAckPending: 10})
	id := runWrapped(t, pool, src, func(f consumer.Feed[jetstream.Message]) consumer.Feed[jetstream.Message] { return deafWrapped{f} })
	for range 30 {
		st.publish(t, "k", "m")
	}
	d := fixtures.AwaitSettled(t, pool, id)
	if d.State != "dead" || d.Attempt != 1 || d.LastError == nil || d.LastError.Code != string(errcode.ConsumerFeedInvalid) {
		t.Fatalf("%s on attempt %d (%+v); want dead at once with X_CONSUMER_FEED_INVALID", d.State, d.Attempt, d.LastError)
	}
	if c := storedCursor(t, pool, "k"); c != 10 {
		t.Fatalf("cursor %d; want the 10 delivered before the stall", c)
	}
	cons, err := st.js.Consumer(context.Background(), st.name, jetstream.DurableName("k"))
	if err != nil {
		t.Fatal(err)
	}
	if info, err := cons.Info(context.Background()); err != nil || info.NumAckPending != 10 || info.AckFloor.Stream != 0 {
		t.Fatalf("durable %+v (%v); want 10 waiting for an acknowledgement, none acknowledged", info, err)
	}
}

// runWrapped starts a run of key "k" over src, its feed wrapped by wrap,
// with batches of 4 and three attempts, and answers the run's id.
func runWrapped(t *testing.T, pool *pgxpool.Pool, src *jetstream.Source, wrap func(consumer.Feed[jetstream.Message]) consumer.Feed[jetstream.Message]) string {
	t.Helper()
	if _, err := pool.Exec(context.Background(), `create table effects (key text not null, seq bigint not null)`); err != nil {
		t.Fatal(err)
	}
	c := consumer.MustNew(consumer.Options[jetstream.Message, uint64]{
		Name: "wrapped",
		Keys: func(context.Context, pgx.Tx) ([]string, error) { return []string{"k"}, nil },
		Open: func(ctx context.Context, key string, cursor uint64) (consumer.Feed[jetstream.Message], error) {
			f, err := src.Open(ctx, key, cursor)
			if err != nil {
				return nil, err
			}
			return wrap(f), nil
		},
		Handle: insertEffects,
		Cursor: consumer.StoredCursor[uint64](),
		Batch:  4,
		Job:    pipeline.JobOptions[consumer.Input, consumer.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	})
	res, err := c.Enqueue(context.Background(), pool, "k")
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	return res.ID
}
