package rabbit_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/outboxtest"
	"github.com/pipekit/pipe/outbox/rabbit"
)

// rabbitURL answers the machine's RabbitMQ: RABBITMQ_URL, else the local
// broker's guest account.
func rabbitURL() string {
	if u := os.Getenv("RABBITMQ_URL"); u != "" {
		return u
	}
	return "amqp://guest:guest@127.0.0.1:5672/"
}

// queue declares a queue of the test's own, deleted when it ends, and
// answers its name and a reader of its messages.
func queue(t *testing.T) (string, func(t *testing.T, n int) []outbox.Envelope) {
	t.Helper()
	conn, err := amqp.Dial(rabbitURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "pipe-outbox-test-" + hex.EncodeToString(b)
	if _, err := ch.QueueDeclare(name, false, false, false, false, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = ch.QueueDelete(name, false, false, false) })
	deliveries, err := ch.Consume(name, "", true, false, false, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return name, func(t *testing.T, n int) []outbox.Envelope {
		var out []outbox.Envelope
		timeout := time.After(30 * time.Second)
		for len(out) < n {
			select {
			case d := <-deliveries:
				h := map[string]string{}
				for k, v := range d.Headers {
					h[k], _ = v.(string)
				}
				out = append(out, outbox.Envelope{ID: d.MessageId, Message: outbox.Message{Headers: h, Payload: d.Body}})
			case <-timeout:
				t.Fatalf("%d of %d messages arrived", len(out), n)
			}
		}
		return out
	}
}

func TestConformance(t *testing.T) {
	name, read := queue(t)
	p, err := rabbit.Dial(rabbitURL(), rabbit.Options{MaxSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	outboxtest.Run(t, outboxtest.Harness{Publisher: p, Stream: name, Read: read, TooLarge: 8192})
}

// A message no queue takes comes back from the broker (mandatory) and is
// refused for good.
func TestAnUnroutableMessageIsRefused(t *testing.T) {
	p, err := rabbit.Dial(rabbitURL(), rabbit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	e := outbox.Envelope{ID: "01a23c15-71e2-7c87-8770-2cfc3d0ca14d", Message: outbox.Message{Stream: "pipe-outbox-test-no-such-queue", Payload: []byte("x")}}
	err = p.Publish(context.Background(), []outbox.Envelope{e})
	if !errors.Is(err, errcode.OutboxPublishRefused) {
		t.Fatalf("an unroutable message: %v; want X_OUTBOX_PUBLISH_REFUSED", err)
	}
	// The fix says what to mend: a queue bound to the routing key.
	if ce, ok := errcode.As(err); !ok || !strings.Contains(ce.Fix, "bind a queue") || !strings.Contains(ce.Fix, "pipe outbox retry") {
		t.Fatalf("an unroutable message's fix: %+v", ce)
	}
}
