package consumer

import (
	"context"
	"io"
	"time"
)

// Feed is the app's stream of items, opened at a cursor. It is read by one
// goroutine, the run's.
type Feed[T any] interface {
	// Read answers up to max items, in the feed's order. When none is ready
	// it waits for the first at most wait, then answers none and a nil
	// error; ctx ending stops the wait (answer ctx's error). At the end of
	// the stream it answers io.EOF, with or without a last few items.
	Read(ctx context.Context, max int, wait time.Duration) ([]T, error)
	// Close releases the feed. The run calls it once, when it ends.
	Close() error
}

// Committer is a [Feed] that wants to hear when a batch it delivered has
// committed — a broker's acknowledgement. The run calls Committed after each
// commit, with the batch; an error fails the attempt (the next one reopens
// the feed at the saved cursor).
type Committer[T any] interface {
	Committed(ctx context.Context, items []T) error
}

// FeedFunc adapts a read function to a [Feed] whose Close does nothing.
type FeedFunc[T any] func(ctx context.Context, max int, wait time.Duration) ([]T, error)

// Read calls f.
func (f FeedFunc[T]) Read(ctx context.Context, max int, wait time.Duration) ([]T, error) {
	return f(ctx, max, wait)
}

// Close does nothing.
func (f FeedFunc[T]) Close() error { return nil }

// FromChan answers a [Feed] over a channel: items as they are sent, the end
// of the stream once it is closed.
func FromChan[T any](ch <-chan T) Feed[T] {
	return FeedFunc[T](func(ctx context.Context, max int, wait time.Duration) ([]T, error) {
		return readChan(ctx, ch, max, wait)
	})
}

func readChan[T any](ctx context.Context, ch <-chan T, max int, wait time.Duration) ([]T, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var out []T
	select {
	case v, ok := <-ch:
		if !ok {
			return nil, io.EOF
		}
		out = append(out, v)
	case <-timer.C:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	for len(out) < max {
		select {
		case v, ok := <-ch:
			if !ok {
				return out, io.EOF
			}
			out = append(out, v)
		default:
			return out, nil
		}
	}
	return out, nil
}
