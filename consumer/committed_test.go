package consumer_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
)

// committerFeed is a seqFeed that counts the commits it hears of.
type committerFeed struct {
	*seqFeed
	heard *atomic.Int64
}

func (f committerFeed) Committed(_ context.Context, items []item) error {
	f.heard.Add(int64(len(items)))
	return nil
}

// A source that needs to hear of commits (NeedsCommitted from its Open),
// whose feed reaches the run through a wrapper without Committed, is refused
// before the first read: dead at once with X_CONSUMER_FEED_INVALID, nothing
// committed. A feed that does hear of them runs to its end, told of every
// item.
func TestAFeedThatMustHearOfCommitsAndCannotIsRefused(t *testing.T) {
	pool := setup(t)
	var heard atomic.Int64
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 30, true) }}
	open := func(ctx context.Context, key string, cursor int64) (consumer.Feed[item], error) {
		consumer.NeedsCommitted(ctx)
		f, _ := fs.open(ctx, key, cursor)
		if key == "deaf" {
			return consumer.FeedFunc[item](f.Read), nil
		}
		return committerFeed{seqFeed: f.(*seqFeed), heard: &heard}, nil
	}
	o := options("must-hear", fs, "deaf", "hears")
	o.Open = open
	c := consumer.MustNew(o)
	ids := map[string]string{}
	for _, k := range []string{"deaf", "hears"} {
		res, err := c.Enqueue(context.Background(), pool, k)
		if err != nil {
			t.Fatal(err)
		}
		ids[k] = res.ID
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	d := fixtures.AwaitSettled(t, pool, ids["deaf"])
	if d.State != "dead" || d.Attempt != 1 || lastCode(d) != string(errcode.ConsumerFeedInvalid) {
		t.Fatalf("the wrapped feed: %s on attempt %d with %q; want dead at once with X_CONSUMER_FEED_INVALID", d.State, d.Attempt, lastCode(d))
	}
	if n, _, _ := effectsOf(t, pool, "deaf"); n != 0 || len(fs.last("deaf").calls()) != 0 {
		t.Fatalf("the refused feed was read (%d effects)", n)
	}
	if d := fixtures.AwaitSettled(t, pool, ids["hears"]); d.State != "done" || heard.Load() != 30 {
		t.Fatalf("the committer: %s, told of %d items; want done, told of 30", d.State, heard.Load())
	}
}
