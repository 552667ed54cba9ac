// Package natsjs publishes an outbox relay's messages to NATS JetStream.
// Each message is published with its outbox message id as Nats-Msg-Id, so
// a batch published again after a crash — before its rows were marked — is
// recognised by the server and stored once: exactly once within the
// stream's duplicate window (Duplicates, 2 minutes by default; keep it
// above the relay's longest outage).
//
// A batch is published asynchronously and waited for as a whole: every
// message's acknowledgement from the stream. A payload over the server's
// max_payload or the stream's max message size, and a subject NATS cannot
// take, are refused for good (X_OUTBOX_PUBLISH_REFUSED); anything else —
// the server away, no stream answering, no acknowledgement in AckWait — is
// X_OUTBOX_BROKER_UNAVAILABLE and published again.
package natsjs

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox"
)

// DefaultAckWait is the default of [Options].AckWait.
const DefaultAckWait = 10 * time.Second

// errMessageTooLarge is the server's code for a message over the stream's
// max message size.
const errMessageTooLarge jetstream.ErrorCode = 10054

// Options declare a JetStream publisher. Each field's comment gives its
// default.
type Options struct {
	// Subject answers the subject a message is published on; a stream of
	// the server must take it. Default: the message's outbox stream.
	Subject func(outbox.Envelope) string
	// AckWait is how long a batch waits for its acknowledgements. Default
	// 10s.
	AckWait time.Duration
}

// Publisher publishes to JetStream over one connection.
type Publisher struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	o      Options
	owned  bool
	limits limits
}

// New answers a publisher over nc, which the caller keeps and closes.
func New(nc *nats.Conn, o Options) (*Publisher, error) {
	if nc == nil {
		return nil, errcode.New(errcode.OutboxInvalid, "outbox: nats: the connection is nil").WithFix("connect to NATS first")
	}
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(1<<16))
	if err != nil {
		return nil, errcode.Wrap(err, errcode.OutboxInvalid, "outbox: nats: open JetStream").WithFix("connect to a NATS server with JetStream enabled")
	}
	if o.Subject == nil {
		o.Subject = func(e outbox.Envelope) string { return e.Stream }
	}
	if o.AckWait <= 0 {
		o.AckWait = DefaultAckWait
	}
	return &Publisher{nc: nc, js: js, o: o}, nil
}

// Dial connects to the NATS server at url (nats://host:port) and answers a
// publisher that owns the connection: Close closes it. The connection
// reconnects for ever; a batch meanwhile fails and is published again.
func Dial(url string, o Options) (*Publisher, error) {
	nc, err := nats.Connect(url, nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond), nats.RetryOnFailedConnect(true))
	if err != nil {
		return nil, outbox.Unavailable(err, "nats", "connect")
	}
	p, err := New(nc, o)
	if err != nil {
		nc.Close()
		return nil, err
	}
	p.owned = true
	return p, nil
}

// Publish publishes batch in order, each message under its id as
// Nats-Msg-Id, and waits for every acknowledgement. Every message is
// checked before the first is sent — its subject, its size against the
// server's max_payload and its stream's max message size — so that a
// message refused for good never lets a later one of the batch reach the
// stream ahead of it.
func (p *Publisher) Publish(ctx context.Context, batch []outbox.Envelope) error {
	msgs := make([]*nats.Msg, len(batch))
	for i, e := range batch {
		msg, err := p.message(ctx, e)
		if err != nil {
			return err
		}
		msgs[i] = msg
	}
	futures := make([]jetstream.PubAckFuture, 0, len(batch))
	for i, e := range batch {
		f, err := p.js.PublishMsgAsync(msgs[i], jetstream.WithMsgID(e.ID))
		if err != nil {
			return classify(e, msgs[i].Subject, err)
		}
		futures = append(futures, f)
	}
	timer := time.NewTimer(p.o.AckWait)
	defer timer.Stop()
	for i, f := range futures {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return classify(batch[i], msgs[i].Subject, err)
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-timer.C:
			return outbox.Unavailable(nats.ErrTimeout, "nats", "wait for the acknowledgements")
		}
	}
	return nil
}

// message builds e's message and refuses it when NATS would not take it.
func (p *Publisher) message(ctx context.Context, e outbox.Envelope) (*nats.Msg, error) {
	subject := p.o.Subject(e)
	if !validSubject(subject) {
		return nil, outbox.Refused(nats.ErrBadSubject, "outbox: nats: message %s has a subject NATS cannot take", e.ID)
	}
	msg := &nats.Msg{Subject: subject, Data: e.Payload, Header: nats.Header{}}
	for k, v := range e.Headers {
		msg.Header.Set(k, v)
	}
	msg.Header.Set(jetstream.MsgIDHeader, e.ID)
	limit, err := p.limits.of(ctx, p.js, subject, p.nc.MaxPayload())
	if err != nil {
		return nil, err
	}
	if size := msgSize(msg); limit > 0 && size > limit {
		p.limits.forget(subject)
		return nil, outbox.Refused(nats.ErrMaxPayload, "outbox: nats: message %s is larger than the server or the stream takes (%d bytes, at most %d)", e.ID, size, limit)
	}
	return msg, nil
}

// Close closes the connection if the publisher opened it.
func (p *Publisher) Close() error {
	if p.owned {
		p.nc.Close()
	}
	return nil
}

// Ping waits until the connection is up (Dial retries a server that is
// down, so a connection may not be yet) and the server answers a flush,
// or ctx ends.
func (p *Publisher) Ping(ctx context.Context) error {
	for !p.nc.IsConnected() {
		select {
		case <-ctx.Done():
			return outbox.Unavailable(ctx.Err(), "nats", "reach the server")
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := p.nc.FlushWithContext(ctx); err != nil {
		return outbox.Unavailable(err, "nats", "reach the server")
	}
	return nil
}

// classify codes a failure to publish message e on subject: refused for
// good, or a broker away.
func classify(e outbox.Envelope, subject string, err error) error {
	var api *jetstream.APIError
	switch {
	case errors.Is(err, nats.ErrMaxPayload), errors.As(err, &api) && api.ErrorCode == errMessageTooLarge:
		return outbox.Refused(err, "outbox: nats: message %s is larger than the server or the stream takes", e.ID)
	case errors.Is(err, nats.ErrBadSubject):
		return outbox.Refused(err, "outbox: nats: message %s has a subject NATS cannot take", e.ID)
	case errors.Is(err, jetstream.ErrNoStreamResponse), errors.Is(err, nats.ErrNoResponders):
		return noStream(err, subject)
	}
	return outbox.Unavailable(err, "nats", "publish")
}

// validSubject answers whether NATS takes subject for a publish: tokens
// separated by dots, none empty, no blanks, no wildcard.
func validSubject(subject string) bool {
	if subject == "" || strings.ContainsAny(subject, " \t\r\n*>") {
		return false
	}
	for _, tok := range strings.Split(subject, ".") {
		if tok == "" {
			return false
		}
	}
	return true
}

// noStream codes a publish no JetStream stream answered: retried, since the
// stream may yet be made, but saying what is missing. The subject comes
// from the relay's declaration (its prefix and the stream's name), not
// from a message.
func noStream(err error, subject string) error {
	return errcode.Wrap(err, errcode.OutboxBrokerUnavailable, "outbox: nats: no JetStream stream takes subject %s", subject).
		WithFix("create a JetStream stream whose subjects include it (nats stream add --subjects '" + subject + "'), or point the relay at a subject one takes; the relay publishes again with backoff")
}
