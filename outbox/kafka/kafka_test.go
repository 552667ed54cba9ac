package kafka_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/kafka"
	"github.com/pipekit/pipe/outbox/outboxtest"
)

// cluster starts franz-go's in-process Kafka cluster with topic of
// partitions partitions (no Kafka runs on this machine).
func cluster(t *testing.T, topic string, partitions int32) []string {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(partitions, topic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c.ListenAddrs()
}

// reader consumes topic from its start, across its partitions.
func reader(t *testing.T, seeds []string, topic string) func(t *testing.T, n int) []*kgo.Record {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return func(t *testing.T, n int) []*kgo.Record {
		var out []*kgo.Record
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for len(out) < n {
			fs := cl.PollRecords(ctx, n-len(out))
			if ctx.Err() != nil {
				t.Fatalf("%d of %d records arrived", len(out), n)
			}
			out = append(out, fs.Records()...)
		}
		return out
	}
}

func envelopes(rs []*kgo.Record) []outbox.Envelope {
	var out []outbox.Envelope
	for _, r := range rs {
		e := outbox.Envelope{Message: outbox.Message{Key: string(r.Key), Headers: map[string]string{}, Payload: r.Value}}
		for _, h := range r.Headers {
			if h.Key == kafka.HeaderMessageID {
				e.ID = string(h.Value)
			} else {
				e.Headers[h.Key] = string(h.Value)
			}
		}
		out = append(out, e)
	}
	return out
}

func TestConformance(t *testing.T) {
	seeds := cluster(t, "orders", 1)
	p, err := kafka.Dial(seeds, kafka.Options{MaxBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	read := reader(t, seeds, "orders")
	outboxtest.Run(t, outboxtest.Harness{Publisher: p, Stream: "orders", TooLarge: 8192,
		Read: func(t *testing.T, n int) []outbox.Envelope { return envelopes(read(t, n)) }})
}

// On a topic of several partitions, each key's records land on one
// partition, in the order published, as a consumer of the broker reads
// them.
func TestEachKeyKeepsItsOrderAcrossPartitions(t *testing.T) {
	seeds := cluster(t, "orders", 4)
	p, err := kafka.Dial(seeds, kafka.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var batch []outbox.Envelope
	for i := range 300 {
		batch = append(batch, outbox.Envelope{ID: fmt.Sprint(i), Message: outbox.Message{Stream: "orders", Key: fmt.Sprint("k", i%7), Payload: fmt.Append(nil, i)}})
	}
	for lo := 0; lo < len(batch); lo += 50 {
		if err := p.Publish(context.Background(), batch[lo:lo+50]); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string][]string{}
	parts := map[string]map[int32]bool{}
	for _, r := range reader(t, seeds, "orders")(t, len(batch)) {
		k := string(r.Key)
		got[k] = append(got[k], string(r.Value))
		if parts[k] == nil {
			parts[k] = map[int32]bool{}
		}
		parts[k][r.Partition] = true
	}
	for k := range 7 {
		key := fmt.Sprint("k", k)
		var want []string
		for i := k; i < len(batch); i += 7 {
			want = append(want, fmt.Sprint(i))
		}
		if !slices.Equal(got[key], want) || len(parts[key]) != 1 {
			t.Fatalf("key %s arrived as %v on %d partitions; want %v on one", key, got[key], len(parts[key]), want)
		}
	}
}
