// Package rabbit publishes an outbox relay's messages to RabbitMQ (AMQP
// 0-9-1, github.com/rabbitmq/amqp091-go) with publisher confirms: a batch
// is published, then every confirmation is waited for. Each message
// carries its outbox message id as the AMQP message-id property (a
// consumer deduplicates by it: RabbitMQ does not), its headers as the
// message's headers, and is persistent.
//
// Messages are published mandatory: one no queue is bound to take is
// returned by the broker, and refused for good (X_OUTBOX_PUBLISH_REFUSED)
// like one over MaxSize or with a routing key over 255 bytes; bind the
// queue, then `pipe outbox retry`. A nack, a closed connection or no
// confirmation within ConfirmWait is X_OUTBOX_BROKER_UNAVAILABLE: the
// publisher redials and the relay publishes again.
package rabbit

import (
	"context"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox"
)

// Defaults of [Options].
const (
	DefaultConfirmWait = 10 * time.Second
	// DefaultMaxSize is RabbitMQ's own default max_message_size.
	DefaultMaxSize = 128 << 20
)

// Options declare a RabbitMQ publisher. Each field's comment gives its
// default.
type Options struct {
	// Exchange is the exchange messages are published to. Default "", the
	// default exchange, which routes a message to the queue its routing key
	// names.
	Exchange string
	// RoutingKey answers a message's routing key. Default: its outbox
	// stream.
	RoutingKey func(outbox.Envelope) string
	// ConfirmWait is how long a batch waits for its confirmations. Default
	// 10s.
	ConfirmWait time.Duration
	// MaxSize is the largest body published; a larger one is refused
	// before it is sent. Default 128 MiB, the broker's default.
	MaxSize int
}

// Publisher publishes over one connection and one confirming channel,
// redialled when they close.
type Publisher struct {
	url string
	o   Options

	mu      sync.Mutex
	conn    *amqp.Connection
	ch      *amqp.Channel
	returns chan amqp.Return
}

// Dial answers a publisher to the broker at url
// (amqp://user:password@host:5672/vhost), connected now.
func Dial(url string, o Options) (*Publisher, error) {
	if o.RoutingKey == nil {
		o.RoutingKey = func(e outbox.Envelope) string { return e.Stream }
	}
	if o.ConfirmWait <= 0 {
		o.ConfirmWait = DefaultConfirmWait
	}
	if o.MaxSize <= 0 {
		o.MaxSize = DefaultMaxSize
	}
	p := &Publisher{url: url, o: o}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.connect(); err != nil {
		return nil, err
	}
	return p, nil
}

// connect opens the connection and a channel in confirm mode.
func (p *Publisher) connect() error {
	if p.ch != nil && !p.ch.IsClosed() && !p.conn.IsClosed() {
		return nil
	}
	p.closeLocked()
	conn, err := amqp.Dial(p.url)
	if err != nil {
		return outbox.Unavailable(err, "rabbitmq", "connect")
	}
	ch, err := conn.Channel()
	if err == nil {
		err = ch.Confirm(false)
	}
	if err != nil {
		_ = conn.Close()
		return outbox.Unavailable(err, "rabbitmq", "open a confirming channel")
	}
	p.conn, p.ch = conn, ch
	p.returns = ch.NotifyReturn(make(chan amqp.Return, 1024))
	return nil
}

// Publish publishes batch in order and waits for every confirmation. Every
// message is checked first (size, routing key), so a refused one sends
// nothing of its batch.
func (p *Publisher) Publish(ctx context.Context, batch []outbox.Envelope) error {
	if err := p.check(batch); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.connect(); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, p.o.ConfirmWait)
	defer cancel()
	confirms := make([]*amqp.DeferredConfirmation, 0, len(batch))
	for _, e := range batch {
		dc, err := p.ch.PublishWithDeferredConfirmWithContext(wctx, p.o.Exchange, p.o.RoutingKey(e), true, false, publishing(e))
		if err != nil {
			p.closeLocked()
			return outbox.Unavailable(err, "rabbitmq", "publish")
		}
		confirms = append(confirms, dc)
	}
	for _, dc := range confirms {
		ok, err := dc.WaitContext(wctx)
		if err != nil || !ok {
			p.closeLocked()
			return outbox.Unavailable(errOr(err, "the broker nacked a message"), "rabbitmq", "wait for the confirmations")
		}
	}
	return p.returned(batch)
}

// returned refuses the batch when the broker returned one of its messages
// (no queue took it). A return comes before its message's confirmation.
func (p *Publisher) returned(batch []outbox.Envelope) error {
	for {
		select {
		case r := <-p.returns:
			for _, e := range batch {
				if e.ID == r.MessageId {
					return errcode.Wrap(errcode.New(errcode.OutboxPublishRefused, "unroutable (%d)", r.ReplyCode), errcode.OutboxPublishRefused,
						"outbox: rabbitmq: no queue took message %s", e.ID).
						WithFix("bind a queue to the message's routing key (with the default exchange, declare a queue named as the stream), then publish the dead messages again with `pipe outbox retry STREAM`")
				}
			}
		default:
			return nil
		}
	}
}

func (p *Publisher) check(batch []outbox.Envelope) error {
	for _, e := range batch {
		switch {
		case len(e.Payload) > p.o.MaxSize:
			return outbox.Refused(amqp.ErrFrame, "outbox: rabbitmq: message %s is larger than %d bytes", e.ID, p.o.MaxSize)
		case len(p.o.RoutingKey(e)) > 255:
			return outbox.Refused(amqp.ErrFieldType, "outbox: rabbitmq: message %s has a routing key over 255 bytes", e.ID)
		}
	}
	return nil
}

func publishing(e outbox.Envelope) amqp.Publishing {
	headers := amqp.Table{}
	for k, v := range e.Headers {
		headers[k] = v
	}
	return amqp.Publishing{MessageId: e.ID, Headers: headers, Body: e.Payload, DeliveryMode: amqp.Persistent}
}

// Close closes the channel and the connection.
func (p *Publisher) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closeLocked()
	return nil
}

func (p *Publisher) closeLocked() {
	if p.ch != nil {
		_ = p.ch.Close()
	}
	if p.conn != nil {
		_ = p.conn.Close()
	}
	p.ch, p.conn = nil, nil
}

func errOr(err error, what string) error {
	if err != nil {
		return err
	}
	return errcode.New(errcode.OutboxBrokerUnavailable, "%s", what)
}
