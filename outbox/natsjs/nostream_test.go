package natsjs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/natsjs"
)

// A subject no JetStream stream takes — the operator has not made the
// stream yet — is a broker away, retried, whose message says which
// subject wants a stream and how to make one.
func TestASubjectWithoutAStreamSaysSo(t *testing.T) {
	nc, err := nats.Connect(natsURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	p, err := natsjs.New(nc, natsjs.Options{Subject: func(e outbox.Envelope) string { return "pipe-no-stream." + e.Stream }})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Publish(context.Background(), []outbox.Envelope{{ID: "m1", Message: outbox.Message{Stream: "orders", Payload: []byte("x")}}})
	e, ok := errcode.As(err)
	if !ok || e.Code != errcode.OutboxBrokerUnavailable || errcode.Classify(err) != errcode.Retryable {
		t.Fatalf("publish to a subject without a stream: %v; want X_OUTBOX_BROKER_UNAVAILABLE, retried", err)
	}
	if !strings.Contains(e.Message, "no JetStream stream takes subject pipe-no-stream.orders") || !strings.Contains(e.Fix, "nats stream add") {
		t.Fatalf("message %q, fix %q; want the subject named and how to make its stream", e.Message, e.Fix)
	}
}
