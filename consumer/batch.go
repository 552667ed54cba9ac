package consumer

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// fill reads one batch: up to Batch items. With nothing in hand a read waits
// up to IdleWait; after the first item each read waits at most Linger for
// the next, and a read that brings none ends the batch. It answers the items
// read and the error that ended the reading, if any (io.EOF at the end of
// the feed, the context's error on a cancel).
func (r *runner[T, C]) fill(ctx context.Context) ([]T, error) {
	var batch []T
	for len(batch) < r.c.o.Batch {
		wait := IdleWait
		if len(batch) > 0 {
			wait = Linger
		}
		want := r.c.o.Batch - len(batch)
		items, err := r.feed.Read(ctx, want, wait)
		if len(items) > want {
			return batch, errcode.New(errcode.ConsumerFeedInvalid, "consumer %s: the feed answered %d items where at most %d were asked for", r.c.o.Name, len(items), want).
				WithFix("answer at most max items from Feed.Read")
		}
		batch = append(batch, items...)
		if err != nil || len(items) == 0 {
			return batch, err
		}
	}
	return batch, nil
}

// commit hands the batch to Handle and saves the cursor it answers, with
// the run's status, in one transaction fenced on the claim. A drain does not
// stop it (the batch in hand commits, then the run is interrupted); a lost
// lease does (nothing lands). A self-enqueue from Handle fails the batch
// whatever Handle returned.
func (r *runner[T, C]) commit(ctx context.Context, items []T) error {
	cctx, done := throughDrain(ctx)
	defer done()
	next := r.st.next(len(items))
	var cursor C
	err := pipeline.FencedTx(cctx, func(ctx context.Context, tx pgx.Tx) (any, error) {
		var err error
		cursor, err = r.c.o.Handle(ctx, tx, r.key, items)
		if gerr := r.guard.check(r.c.o.Name); gerr != nil {
			return nil, gerr
		}
		if err != nil {
			return nil, err
		}
		if err := r.c.o.Cursor.Save(ctx, tx, r.key, cursor); err != nil {
			return nil, err
		}
		return next, nil
	})
	if err != nil {
		return err
	}
	r.cursor, r.st.doc = cursor, next
	if c, ok := r.feed.(Committer[T]); ok {
		return c.Committed(cctx, items)
	}
	return nil
}

// throughDrain answers a context that a drain (X_DRAINING) does not cancel
// but every other cancellation of ctx — a lost lease, a stopping worker —
// does, so the batch in hand can commit on a drain.
func throughDrain(ctx context.Context) (context.Context, func()) {
	cctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		if cause := context.Cause(ctx); !errors.Is(cause, errcode.Draining) {
			cancel(cause)
		}
	})
	return cctx, func() {
		stop()
		cancel(nil)
	}
}
