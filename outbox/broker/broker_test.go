package broker_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/broker"
)

// Each scheme opens its publisher against the real broker (Kafka: the
// in-process fake cluster), which then publishes; a URL of no known broker
// is X_OUTBOX_INVALID and never quoted.
func TestOpenByURL(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "p.orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, u := range []string{"nats://127.0.0.1:4222", "amqp://guest:guest@127.0.0.1:5672/?exchange=amq.topic", "kafka://" + strings.Join(c.ListenAddrs(), ",") + "?prefix=p"} {
		p, err := broker.Open(u)
		if err != nil {
			t.Fatalf("%s: %v", strings.SplitN(u, ":", 2)[0], err)
		}
		if strings.HasPrefix(u, "kafka") {
			e := outbox.Envelope{ID: "id", Message: outbox.Message{Stream: "orders", Payload: []byte("x")}}
			if err := p.Publish(context.Background(), []outbox.Envelope{e}); err != nil {
				t.Fatalf("kafka publish: %v", err)
			}
		}
		_ = p.Close()
	}
	for _, u := range []string{"redis://secret@127.0.0.1:6379", "no scheme secret", "nats://h?%zz"} {
		_, err := broker.Open(u)
		if !errors.Is(err, errcode.OutboxInvalid) || strings.Contains(err.Error(), "secret") {
			t.Fatalf("Open of a bad URL: %v", err)
		}
	}
}

// Probe says whether each broker answers: the real ones here (Kafka: the
// in-process fake cluster, whose client connects only when asked), and a
// port nothing listens on, which is X_OUTBOX_BROKER_UNAVAILABLE.
func TestProbeSaysWhetherTheBrokerAnswers(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	kafka := "kafka://" + strings.Join(c.ListenAddrs(), ",")
	for _, u := range []string{"nats://127.0.0.1:4222", "amqp://guest:guest@127.0.0.1:5672/", kafka} {
		if err := broker.Probe(context.Background(), u); err != nil {
			t.Errorf("%s: %v", strings.SplitN(u, ":", 2)[0], err)
		}
	}
	c.Close()
	for _, u := range []string{"nats://127.0.0.1:1", "amqp://guest:guest@127.0.0.1:1/", kafka} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err := broker.Probe(ctx, u)
		cancel()
		if !errors.Is(err, errcode.OutboxBrokerUnavailable) {
			t.Errorf("%s with nothing listening: %v; want X_OUTBOX_BROKER_UNAVAILABLE", strings.SplitN(u, ":", 2)[0], err)
		}
	}
}
