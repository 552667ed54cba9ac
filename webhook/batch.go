package webhook

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Batching of a door's enqueues: while flushes are running, new requests
// queue, and the next free flusher takes them all (up to batchMax) into one
// EnqueueMany — one statement, one commit. At low load a request is written
// alone and at once; at high load batches grow. Correctness never depends
// on the batching: a batch that fails fails every request in it (each then
// answers 503 and the sender redelivers), and two requests with one event
// id in one batch are one run, the second deduped.
const (
	batchMax      = 256
	batchFlushers = 4
	// flushTimeout bounds one batch's write: a database that does not
	// answer is a 503 within it, not a request held open.
	flushTimeout = 10 * time.Second
)

type enqueueBatcher[T any] struct {
	mu     sync.RWMutex // held to send; taken whole to close
	closed bool
	in     chan batchReq[T]
	flush  func(context.Context, []T) ([]pipeline.EnqueueResult, error)
	wg     sync.WaitGroup
}

type batchReq[T any] struct {
	v    T
	done chan batchRes
}

type batchRes struct {
	res pipeline.EnqueueResult
	err error
}

var errDoorClosed = errors.New("the receiver's door is closed")

func newEnqueueBatcher[T any](flush func(context.Context, []T) ([]pipeline.EnqueueResult, error)) *enqueueBatcher[T] {
	b := &enqueueBatcher[T]{in: make(chan batchReq[T], batchMax*batchFlushers), flush: flush}
	for range batchFlushers {
		b.wg.Add(1)
		go b.loop()
	}
	return b
}

// do queues v and waits for the commit that holds it.
func (b *enqueueBatcher[T]) do(ctx context.Context, v T) (pipeline.EnqueueResult, error) {
	r := batchReq[T]{v: v, done: make(chan batchRes, 1)}
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return pipeline.EnqueueResult{}, errDoorClosed
	}
	select {
	case b.in <- r:
		b.mu.RUnlock()
	case <-ctx.Done():
		b.mu.RUnlock()
		return pipeline.EnqueueResult{}, ctx.Err()
	}
	got := <-r.done // always answered: the flush ends whatever the request's context
	return got.res, got.err
}

func (b *enqueueBatcher[T]) loop() {
	defer b.wg.Done()
	reqs := make([]batchReq[T], 0, batchMax)
	for first := range b.in {
		reqs = append(reqs[:0], first)
	drain:
		for len(reqs) < batchMax {
			select {
			case r, ok := <-b.in:
				if !ok {
					break drain
				}
				reqs = append(reqs, r)
			default:
				break drain
			}
		}
		b.run(reqs)
	}
}

func (b *enqueueBatcher[T]) run(reqs []batchReq[T]) {
	vs := make([]T, len(reqs))
	for i, r := range reqs {
		vs[i] = r.v
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	res, err := b.flush(ctx, vs)
	if err == nil && len(res) != len(reqs) {
		err = errcode.New(errcode.Invariant, "an enqueue answered %d results for %d inputs", len(res), len(reqs))
	}
	for i, r := range reqs {
		if err != nil {
			r.done <- batchRes{err: err}
			continue
		}
		r.done <- batchRes{res: res[i]}
	}
}

func (b *enqueueBatcher[T]) close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.in)
	}
	b.mu.Unlock()
	b.wg.Wait()
}
