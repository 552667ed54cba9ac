package outbox

import (
	"context"

	"github.com/pipekit/pipe/errcode"
)

// Envelope is a staged message as a relay hands it to a [Publisher]: the
// message and the id it was staged under, which the publisher sends as the
// broker's message id so that a batch published again after a crash can be
// recognised.
type Envelope struct {
	// ID is the message id drawn at staging (a UUID).
	ID string
	Message
}

// Publisher puts messages on a broker. A relay calls it from one goroutine
// per stream; an implementation is safe for concurrent use.
//
// Packages outbox/natsjs, outbox/rabbit and outbox/kafka are the shipped
// ones; outbox/broker opens one by URL.
type Publisher interface {
	// Publish sends batch in order and returns once the broker has taken
	// every message (acknowledged, confirmed, written). An error means some
	// may not have been taken; the relay then publishes the batch again one
	// message at a time. A message the broker refuses for good — too large,
	// a subject or topic it cannot take — is an error coded
	// X_OUTBOX_PUBLISH_REFUSED ([Refused]); any other error is taken for a
	// broker that is away, and retried.
	Publish(ctx context.Context, batch []Envelope) error
	// Close releases the publisher's connection.
	Close() error
}

// Refused codes err, the broker's answer to one message, as its refusal for
// good: the relay dead-letters the message. The message is built from
// format and args, which must not quote the message's content.
func Refused(err error, format string, args ...any) error {
	return errcode.Wrap(err, errcode.OutboxPublishRefused, format, args...).
		WithFix("read the dead row's error in `pipe outbox status`, correct the broker (or the message's size or stream), then `pipe outbox retry`")
}

// Unavailable codes err as a broker that did not take a batch: the relay
// publishes it again later.
func Unavailable(err error, broker, what string) error {
	return errcode.Wrap(err, errcode.OutboxBrokerUnavailable, "outbox: %s: %s failed", broker, what).
		WithFix("check the broker and the connection to it; the relay publishes again with backoff")
}
