package webhook

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// Batching of a door's enqueues and of the stock ledger's rows: while
// flushes are running, new requests queue, and the next free flusher takes
// them all (up to batchMax) into one statement — one commit. At low load a request is written
// alone and at once; at high load batches grow. Correctness never depends
// on the batching: a batch that fails fails every request in it (each then
// answers 503 and the sender redelivers), and two requests with one event
// id in one batch are one run, the second deduped.
const (
	batchMax = 256
	// doorFlushers is how many of a door's batches are written at once:
	// several, so that an ack waits for at most a short statement (the
	// ledger's, ledgerFlushers, trades that for bigger batches).
	doorFlushers = 4
	// flushTimeout bounds one batch's write: a database that does not
	// answer is a 503 within it, not a request held open.
	flushTimeout = 10 * time.Second
)

type batcher[T, R any] struct {
	flushers int
	mu       sync.RWMutex // held to send; taken whole to close
	closed   bool
	in       chan batchReq[T, R]
	flush    func(context.Context, []T) ([]R, error)
	start    sync.Once // the flushers start with the first request
	wg       sync.WaitGroup
}

type batchReq[T, R any] struct {
	v    T
	done chan batchRes[R]
}

type batchRes[R any] struct {
	res R
	err error
}

var errBatcherClosed = errors.New("closed")

func newBatcher[T, R any](flushers int, flush func(context.Context, []T) ([]R, error)) *batcher[T, R] {
	return &batcher[T, R]{flushers: flushers, in: make(chan batchReq[T, R], batchMax*flushers), flush: flush}
}

func (b *batcher[T, R]) startFlushers() {
	b.wg.Add(b.flushers)
	for range b.flushers {
		go b.loop()
	}
}

// do queues v and waits for the commit that holds it.
func (b *batcher[T, R]) do(ctx context.Context, v T) (R, error) {
	r := batchReq[T, R]{v: v, done: make(chan batchRes[R], 1)}
	var zero R
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return zero, errBatcherClosed
	}
	b.start.Do(b.startFlushers)
	select {
	case b.in <- r:
		b.mu.RUnlock()
	case <-ctx.Done():
		b.mu.RUnlock()
		return zero, ctx.Err()
	}
	got := <-r.done // always answered: the flush ends whatever the request's context
	return got.res, got.err
}

func (b *batcher[T, R]) loop() {
	defer b.wg.Done()
	reqs := make([]batchReq[T, R], 0, batchMax)
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

func (b *batcher[T, R]) run(reqs []batchReq[T, R]) {
	vs := make([]T, len(reqs))
	for i, r := range reqs {
		vs[i] = r.v
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	res, err := b.flush(ctx, vs)
	if err == nil && len(res) != len(reqs) {
		err = errcode.New(errcode.Invariant, "a batch answered %d results for %d inputs", len(res), len(reqs))
	}
	for i, r := range reqs {
		if err != nil {
			r.done <- batchRes[R]{err: err}
			continue
		}
		r.done <- batchRes[R]{res: res[i]}
	}
}

func (b *batcher[T, R]) close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.in)
	}
	b.mu.Unlock()
	b.wg.Wait()
}
