// Package outboxtest is the conformance suite of outbox publishers: every
// publisher pipe ships runs it against its real broker, and so can one an
// application writes.
//
//	func TestConformance(t *testing.T) {
//		outboxtest.Run(t, outboxtest.Harness{Publisher: pub, Stream: "orders", Read: read, TooLarge: 2 << 20})
//	}
package outboxtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox"
)

// Harness is what the suite needs of a publisher and its broker.
type Harness struct {
	// Publisher is the publisher under test.
	Publisher outbox.Publisher
	// Stream is an outbox stream the publisher routes where Read reads.
	Stream string
	// Read answers the next n messages the broker holds for Stream, in the
	// broker's order, each with the id it was published under, its
	// headers (besides the broker's own) and its payload; it fails the
	// test if fewer come within a generous while.
	Read func(t *testing.T, n int) []outbox.Envelope
	// TooLarge is a payload size the broker refuses for good.
	TooLarge int
}

// Run runs the suite: a batch arrives whole, in order, under its ids, with
// its headers and payloads; a message the broker refuses for good is
// X_OUTBOX_PUBLISH_REFUSED, and no message of its batch reaches the broker.
func Run(t *testing.T, h Harness) {
	t.Run("batch", func(t *testing.T) { batch(t, h) })
	t.Run("refused", func(t *testing.T) { refused(t, h) })
}

func envelope(h Harness, i, size int) outbox.Envelope {
	body := fmt.Appendf(nil, "m%d ", i)
	body = append(body, make([]byte, size)...)
	return outbox.Envelope{ID: uuid.NewString(), Message: outbox.Message{Stream: h.Stream, Key: fmt.Sprint(i % 3),
		Headers: map[string]string{"n": fmt.Sprint(i)}, Payload: body}}
}

func batch(t *testing.T, h Harness) {
	var sent []outbox.Envelope
	for i := range 50 {
		sent = append(sent, envelope(h, i, 10))
	}
	if err := h.Publisher.Publish(context.Background(), sent); err != nil {
		t.Fatalf("Publish: %v", err)
	}
	got := h.Read(t, len(sent))
	for i, e := range sent {
		if i >= len(got) {
			t.Fatalf("the broker holds %d of %d messages", len(got), len(sent))
		}
		g := got[i]
		if g.ID != e.ID || g.Headers["n"] != e.Headers["n"] || !slices.Equal(g.Payload, e.Payload) {
			t.Fatalf("message %d arrived as id %s, header n %q; want id %s, n %q and its payload, in order", i, g.ID, g.Headers["n"], e.ID, e.Headers["n"])
		}
	}
}

func refused(t *testing.T, h Harness) {
	ctx := context.Background()
	big := envelope(h, 1, h.TooLarge)
	err := h.Publisher.Publish(ctx, []outbox.Envelope{envelope(h, 0, 10), big, envelope(h, 2, 10)})
	if !errors.Is(err, errcode.OutboxPublishRefused) {
		t.Fatalf("a batch holding a message too large: %v; want X_OUTBOX_PUBLISH_REFUSED", err)
	}
	after := envelope(h, 3, 10)
	if err := h.Publisher.Publish(ctx, []outbox.Envelope{after}); err != nil {
		t.Fatalf("Publish after a refusal: %v", err)
	}
	if got := h.Read(t, 1); len(got) != 1 || got[0].ID != after.ID {
		t.Fatal("a message of the refused batch reached the broker: a later message could pass the refused one")
	}
}
