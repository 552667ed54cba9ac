package jetstream_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer/jetstream"
)

// killAhead is how far the kill test's publisher may run ahead of a key's
// durable: the messages it has not had acknowledged. The publisher goes on
// through every kill and restart, and never runs far ahead of the workers.
const killAhead = 300

// publisher publishes the kill test's messages while the workers run.
type publisher struct {
	n    atomic.Int64 // how many are published so far
	done chan struct{}
	seqs map[string][]uint64 // each key's published stream sequences
	err  error
}

// publishLive publishes n messages, the keys in turn, waiting every 100 for
// each key's durable to have at most killAhead unacknowledged (src.Lag).
func publishLive(st *stream, src *jetstream.Source, n int) *publisher {
	p := &publisher{done: make(chan struct{}), seqs: map[string][]uint64{}}
	go func() {
		defer close(p.done)
		for i := range n {
			k := killKeys[i%len(killKeys)]
			ack, err := st.js.Publish(context.Background(), st.name+".orders."+k, []byte("order"))
			if err != nil {
				p.err = err
				return
			}
			p.seqs[k] = append(p.seqs[k], ack.Sequence)
			p.n.Add(1)
			if i%100 == 99 {
				if p.err = awaitBehind(src); p.err != nil {
					return
				}
			}
		}
	}()
	return p
}

// awaitBehind waits until each key's durable has at most killAhead messages
// unacknowledged, for at most two minutes. A durable being replaced is
// looked up again.
func awaitBehind(src *jetstream.Source) error {
	deadline := time.Now().Add(2 * time.Minute)
	for _, k := range killKeys {
		for {
			lag, err := src.Lag(context.Background(), nil, k, 0)
			if err == nil && lag <= killAhead {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("key %s's durable is %d behind after two minutes (%v)", k, lag, err)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return nil
}

// handledUpTo answers the least cursor of the kill test's keys: the stream
// sequence every key has handled up to (its messages are the only ones of
// the stream), 0 before each key committed one, -1 on an error.
func handledUpTo(pool *pgxpool.Pool) int {
	var n int
	err := pool.QueryRow(context.Background(), `
		select case when count(*) = $1 then min(cursor::bigint) else 0 end
		from pipe.consumer_cursors where consumer = 'js-killed'`, len(killKeys)).Scan(&n)
	if err != nil {
		return -1
	}
	return n
}

// wait waits for the publisher to end and answers what it published.
func (p *publisher) wait(t *testing.T) map[string][]uint64 {
	t.Helper()
	<-p.done
	if p.err != nil {
		t.Fatalf("publish: %v", p.err)
	}
	return p.seqs
}
