package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ackWait bounds the wait for one message's acknowledgement, as pipe's
// natsjs publisher's default does.
const ackWait = 10 * time.Second

// jsPublisher is a watermill message.Publisher onto NATS JetStream (no
// watermill NATS module is served here): each Publish call publishes its
// messages asynchronously, the topic as the subject, the metadata as
// headers and the message UUID as Nats-Msg-Id (JetStream's dedup key), and
// returns once JetStream has acknowledged every one of them. It counts the
// acknowledged messages and closes done when want of them are in.
type jsPublisher struct {
	js    jetstream.JetStream
	want  int64
	acked atomic.Int64
	done  chan struct{}
	once  sync.Once
}

func newJSPublisher(js jetstream.JetStream, want int) *jsPublisher {
	return &jsPublisher{js: js, want: int64(want), done: make(chan struct{})}
}

func (p *jsPublisher) Publish(topic string, msgs ...*message.Message) error {
	futures := make([]jetstream.PubAckFuture, 0, len(msgs))
	for _, m := range msgs {
		nm := nats.NewMsg(topic)
		nm.Data = m.Payload
		for k, v := range m.Metadata {
			nm.Header.Set(k, v)
		}
		f, err := p.js.PublishMsgAsync(nm, jetstream.WithMsgID(m.UUID))
		if err != nil {
			return err
		}
		futures = append(futures, f)
	}
	ctx := context.Background()
	if len(msgs) > 0 {
		ctx = msgs[0].Context()
	}
	timer := time.NewTimer(ackWait)
	defer timer.Stop()
	for _, f := range futures {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return err
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
			return errors.New("jetstream: no acknowledgement in time")
		}
	}
	// A message the forwarder redelivers after a failed call may be counted
	// twice here; the stream's own count, checked after, is exact.
	if p.acked.Add(int64(len(msgs))) >= p.want {
		p.once.Do(func() { close(p.done) })
	}
	return nil
}

func (p *jsPublisher) Close() error { return nil }
