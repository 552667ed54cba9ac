package pipeline

import (
	"context"
	"errors"
	"sync"
)

// batcher groups concurrent requests into one statement: while a flush is
// running, new requests queue, and the next flush takes them all (up to max).
// At low load a request is flushed alone and at once; at high load the
// batches grow. Correctness never depends on the batching.
type batcher[T any] struct {
	mu     sync.RWMutex // held to send; taken whole to close
	closed bool
	max    int
	flush  func(ctx context.Context, items []T) ([]bool, error)
	in     chan batchItem[T]
	wg     sync.WaitGroup
}

type batchItem[T any] struct {
	v    T
	done chan batchResult
}

type batchResult struct {
	ok  bool
	err error
}

func newBatcher[T any](max, flushers int, flush func(context.Context, []T) ([]bool, error)) *batcher[T] {
	b := &batcher[T]{max: max, flush: flush, in: make(chan batchItem[T], max*flushers)}
	for range flushers {
		b.wg.Add(1)
		go b.loop()
	}
	return b
}

// do submits v and waits for its flush: ok says the write landed (its fence
// held).
func (b *batcher[T]) do(ctx context.Context, v T) (bool, error) {
	it := batchItem[T]{v: v, done: make(chan batchResult, 1)}
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return false, errBatcherClosed
	}
	select {
	case b.in <- it:
		b.mu.RUnlock()
	case <-ctx.Done():
		b.mu.RUnlock()
		return false, ctx.Err()
	}
	r := <-it.done
	return r.ok, r.err
}

func (b *batcher[T]) loop() {
	defer b.wg.Done()
	items := make([]batchItem[T], 0, b.max)
	for first := range b.in {
		items = append(items[:0], first)
	drain:
		for len(items) < b.max {
			select {
			case it, ok := <-b.in:
				if !ok {
					break drain
				}
				items = append(items, it)
			default:
				break drain
			}
		}
		b.run(items)
	}
}

func (b *batcher[T]) run(items []batchItem[T]) {
	vs := make([]T, len(items))
	for i, it := range items {
		vs[i] = it.v
	}
	oks, err := b.flush(context.Background(), vs)
	for i, it := range items {
		r := batchResult{err: err}
		if err == nil {
			r.ok = oks[i]
		}
		it.done <- r
	}
}

// close stops the flushers once every queued request is flushed.
func (b *batcher[T]) close() {
	b.mu.Lock()
	b.closed = true
	close(b.in)
	b.mu.Unlock()
	b.wg.Wait()
}

// errBatcherClosed answers a write that came after its worker stopped: an
// abandoned body writes nothing.
var errBatcherClosed = errors.New("pipeline: the worker has stopped")
