package jetstream

import (
	"context"
	"errors"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/errcode"
)

// The server's codes for a consumer a WorkQueue stream refuses beside
// another: both unfiltered, or their subjects overlap.
const (
	errWorkQueueUnfiltered js.ErrorCode = 10099
	errWorkQueueNotUnique  js.ErrorCode = 10100
)

// createErr codes a failure to create a durable: the refusal of a WorkQueue
// stream, whose every message goes to one consumer, to let the key's
// durable read subjects another consumer reads is terminal; anything else is
// retried.
func createErr(stream string, err error) error {
	var api *js.APIError
	if errors.As(err, &api) && (api.ErrorCode == errWorkQueueUnfiltered || api.ErrorCode == errWorkQueueNotUnique) {
		return errcode.Wrap(err, errcode.ConsumerSourceInvalid, "jetstream source: stream %s is a work queue and another consumer already reads the key's subjects", stream).
			WithFix("give each key subjects of its own in Subjects, and let no other consumer of the stream read them")
	}
	return unavailable(stream, "create the durable consumer", err)
}

func unavailable(stream, what string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return errcode.Wrap(err, errcode.ConsumerSourceUnavailable, "jetstream source: stream %s: %s failed", stream, what).
		WithFix("check the NATS server and the connection; the attempt is retried")
}
