package consumer

import (
	"context"
	"errors"
	"io"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// runner is one attempt of one key's run.
type runner[T, C any] struct {
	c      *Consumer[T, C]
	key    string
	guard  *guard
	feed   Feed[T]
	cursor C
	st     runStatus
	lag    lagMeter
}

// body follows one key: it loads the cursor, opens the feed there and
// commits batch after batch until the feed ends (the run is done) or the run
// is cancelled (a drain: interrupted, the attempt uncounted).
func (c *Consumer[T, C]) body(ctx context.Context, run *pipeline.Run[Input]) (Result, error) {
	ctx, g := withGuard(ctx, c.o.Name)
	r := &runner[T, C]{c: c, key: run.Input.Key, guard: g}
	if err := r.start(ctx); err != nil {
		return Result{}, err
	}
	defer r.feed.Close()
	err := r.loop(ctx)
	if errors.Is(err, io.EOF) {
		return r.st.result(), nil
	}
	return Result{}, err
}

// start loads the key's cursor (in a transaction fenced on the claim: a
// stale attempt reads nothing), the counts an earlier attempt reported, and
// opens the feed at the cursor.
func (r *runner[T, C]) start(ctx context.Context) error {
	if err := checkKey(r.c.o.Name, 0, r.key); err != nil {
		return err
	}
	if _, err := pipeline.StoredStatus(ctx, &r.st.doc); err != nil {
		return err
	}
	r.st.doc.Consumer.Key = r.key
	err := pipeline.FencedTx(ctx, func(ctx context.Context, tx pgx.Tx) (any, error) {
		var err error
		r.cursor, err = r.c.o.Cursor.Load(ctx, tx, r.key)
		return nil, err
	})
	if err != nil {
		return err
	}
	feed, err := r.c.o.Open(ctx, r.key, r.cursor)
	if err == nil {
		err = r.checkFeed(feed)
	}
	if gerr := r.guard.check(r.c.o.Name); gerr != nil {
		err = gerr
	}
	if err != nil {
		if feed != nil {
			_ = feed.Close()
		}
		return err
	}
	r.feed = feed
	return nil
}

// checkFeed refuses what Open answered when it is no feed, or a feed that
// does not hear of commits over a source that needs to.
func (r *runner[T, C]) checkFeed(feed Feed[T]) error {
	if feed == nil {
		return errcode.New(errcode.ConsumerFeedInvalid, "consumer %s: Open answered no feed and no error", r.c.o.Name).
			WithFix("answer a Feed from Open, or an error")
	}
	return r.checkCommitter(feed)
}

// loop reads and commits batches until the feed ends, fails, or the run is
// cancelled. Items read before a feed error or a cancel are committed first:
// a drain commits the batch in hand.
func (r *runner[T, C]) loop(ctx context.Context) error {
	for {
		items, readErr := r.fill(ctx)
		if len(items) > 0 {
			if err := r.commit(ctx, items); err != nil {
				return err
			}
		}
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
		if readErr != nil {
			return readErr
		}
		if err := r.measureLag(ctx, len(items) == 0); err != nil {
			return err
		}
	}
}
