// Package kafka publishes an outbox relay's messages to Kafka through
// franz-go's idempotent producer (acks from every in-sync replica, retried
// sends written once, in order, per partition). A message's key is the
// record's key, so the default partitioner (murmur2 of the key, as the
// Java client's) keeps a key on one partition and its messages in order;
// its outbox message id travels as the record header message-id, beside
// its own headers; its topic is its outbox stream by default.
//
// A message over MaxBytes, a topic name Kafka cannot take, or a record the
// broker refuses as too large or for its topic is refused for good
// (X_OUTBOX_PUBLISH_REFUSED), checked before the batch is sent where the
// client can tell; anything else is X_OUTBOX_BROKER_UNAVAILABLE and
// published again.
package kafka

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/pipekit/pipe/outbox"
)

// Defaults of [Options].
const (
	DefaultProduceWait = 10 * time.Second
	// DefaultMaxBytes is the largest record the client batches by default
	// (franz-go's ProducerBatchMaxBytes, below the broker's
	// message.max.bytes).
	DefaultMaxBytes = 1_000_000
)

// HeaderMessageID is the record header carrying the outbox message id.
const HeaderMessageID = "message-id"

// Options declare a Kafka publisher. Each field's comment gives its
// default.
type Options struct {
	// Topic answers a message's topic. Default: its outbox stream.
	Topic func(outbox.Envelope) string
	// ProduceWait is how long a batch waits for its acknowledgements.
	// Default 10s.
	ProduceWait time.Duration
	// MaxBytes is the largest record (key, value and headers) published;
	// a larger one is refused before it is sent. Default 1,000,000.
	MaxBytes int
	// Client are more franz-go options (TLS, SASL), after pipe's own.
	Client []kgo.Opt
}

// Publisher publishes through one franz-go client.
type Publisher struct {
	cl *kgo.Client
	o  Options
}

// Dial answers a publisher to the cluster reached through seeds
// (host:port).
func Dial(seeds []string, o Options) (*Publisher, error) {
	if o.Topic == nil {
		o.Topic = func(e outbox.Envelope) string { return e.Stream }
	}
	if o.ProduceWait <= 0 {
		o.ProduceWait = DefaultProduceWait
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	opts := append([]kgo.Opt{kgo.SeedBrokers(seeds...), kgo.RequiredAcks(kgo.AllISRAcks()), kgo.ProducerLinger(0)}, o.Client...)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, outbox.Unavailable(err, "kafka", "open the client")
	}
	return &Publisher{cl: cl, o: o}, nil
}

// Publish produces batch in order and waits for every record's
// acknowledgement.
func (p *Publisher) Publish(ctx context.Context, batch []outbox.Envelope) error {
	records := make([]*kgo.Record, len(batch))
	for i, e := range batch {
		r, err := p.record(e)
		if err != nil {
			return err
		}
		records[i] = r
	}
	wctx, cancel := context.WithTimeout(ctx, p.o.ProduceWait)
	defer cancel()
	results := p.cl.ProduceSync(wctx, records...)
	for i, res := range results {
		if res.Err != nil {
			return classify(batch[i], res.Err)
		}
	}
	return nil
}

// record builds e's record, refusing one Kafka would not take.
func (p *Publisher) record(e outbox.Envelope) (*kgo.Record, error) {
	r := &kgo.Record{Topic: p.o.Topic(e), Key: []byte(e.Key), Value: e.Payload,
		Headers: []kgo.RecordHeader{{Key: HeaderMessageID, Value: []byte(e.ID)}}}
	size := len(r.Key) + len(r.Value) + len(HeaderMessageID) + len(e.ID)
	for k, v := range e.Headers {
		r.Headers = append(r.Headers, kgo.RecordHeader{Key: k, Value: []byte(v)})
		size += len(k) + len(v)
	}
	switch {
	case !validTopic(r.Topic):
		return nil, outbox.Refused(kerr.InvalidTopicException, "outbox: kafka: message %s has a topic Kafka cannot take", e.ID)
	case size > p.o.MaxBytes:
		return nil, outbox.Refused(kerr.MessageTooLarge, "outbox: kafka: message %s is larger than %d bytes", e.ID, p.o.MaxBytes)
	}
	return r, nil
}

// Close flushes nothing (every batch was waited for) and closes the client.
func (p *Publisher) Close() error {
	p.cl.Close()
	return nil
}

// Ping asks the cluster for its brokers: a client connects lazily, so this
// is what says the seeds answer.
func (p *Publisher) Ping(ctx context.Context) error {
	if err := p.cl.Ping(ctx); err != nil {
		return outbox.Unavailable(err, "kafka", "reach the cluster")
	}
	return nil
}

func classify(e outbox.Envelope, err error) error {
	for _, refused := range []error{kerr.MessageTooLarge, kerr.RecordListTooLarge, kerr.InvalidTopicException, kerr.InvalidRecord, kerr.TopicAuthorizationFailed} {
		if errors.Is(err, refused) {
			return outbox.Refused(err, "outbox: kafka: the broker refused message %s", e.ID)
		}
	}
	return outbox.Unavailable(err, "kafka", "produce")
}

// validTopic answers whether Kafka takes name as a topic: 1 to 249 of
// [a-zA-Z0-9._-], not "." or "..".
func validTopic(name string) bool {
	if name == "" || len(name) > 249 || name == "." || name == ".." {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
