package consumer

import (
	"context"

	"github.com/pipekit/pipe/errcode"
)

// NeedsCommitted tells the run whose Open is called with ctx that the feed
// being opened must hear of each commit: a broker's feed acknowledges a
// batch there, and without it the broker redelivers or stops delivering. If
// Open then answers a feed that is not a [Committer] — a wrapper of the
// source's feed that does not forward Committed — the run fails with
// X_CONSUMER_FEED_INVALID, terminal, before it reads. A source calls it from
// its own Open; outside a consumer's run it does nothing.
func NeedsCommitted(ctx context.Context) {
	if g := guardFrom(ctx); g != nil {
		g.needsCommitted.Store(true)
	}
}

// checkCommitter refuses a feed that is not a Committer when its source
// asked for one (NeedsCommitted).
func (r *runner[T, C]) checkCommitter(feed Feed[T]) error {
	if !r.guard.needsCommitted.Load() {
		return nil
	}
	if _, ok := feed.(Committer[T]); ok {
		return nil
	}
	return errcode.New(errcode.ConsumerFeedInvalid, "consumer %s: Open answered a feed without Committed over a source that needs to hear of each commit", r.c.o.Name).
		WithFix("give the feed Open answers a Committed(ctx, items) method that calls the source feed's Committed with the batch's items (or the source messages they came from)")
}
