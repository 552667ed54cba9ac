package natsjs_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/natsjs"
	"github.com/pipekit/pipe/outbox/outboxtest"
)

func natsURL() string {
	if u := os.Getenv("NATS_URL"); u != "" {
		return u
	}
	return "nats://127.0.0.1:4222"
}

// The publisher against the machine's JetStream, on a stream of the test's
// own whose max message size is 4 KiB.
func TestConformance(t *testing.T) {
	nc, err := nats.Connect(natsURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "PIPE_NATSJS_" + strings.ToUpper(hex.EncodeToString(b))
	ctx := context.Background()
	st, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{name + ".>"}, Storage: jetstream.MemoryStorage, MaxMsgSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	defer js.DeleteStream(ctx, name)
	p, err := natsjs.New(nc, natsjs.Options{Subject: func(e outbox.Envelope) string { return name + "." + e.Stream }})
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	read := func(t *testing.T, n int) []outbox.Envelope {
		var out []outbox.Envelope
		for len(out) < n {
			batch, err := c.Fetch(n-len(out), jetstream.FetchMaxWait(10*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for m := range batch.Messages() {
				h := map[string]string{}
				for k := range m.Headers() {
					h[k] = m.Headers().Get(k)
				}
				out = append(out, outbox.Envelope{ID: h[jetstream.MsgIDHeader], Message: outbox.Message{Headers: h, Payload: m.Data()}})
				got++
			}
			if got == 0 {
				t.Fatalf("%d of %d messages arrived", len(out), n)
			}
		}
		return out
	}
	outboxtest.Run(t, outboxtest.Harness{Publisher: p, Stream: "orders", Read: read, TooLarge: 8192})
}
