package project

import (
	"context"
	"os"
	"strings"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/broker"
	"github.com/pipekit/pipe/pipeline"
)

// Outbox declares the outbox relay the worker runs: the broker its
// committed messages go to and the streams it publishes.
type Outbox struct {
	// Broker is the broker's URL: nats://host:4222, amqp://user:password@host:5672/
	// or kafka://host:9092 (see package outbox/broker for prefix and
	// exchange). A value starting with $ names an environment variable
	// holding the URL, so that a password stays out of the file.
	Broker string `json:"broker" jsonschema:"minLength=1"`
	// Streams are the streams published, one runner each across the fleet.
	Streams []OutboxStream `json:"streams" jsonschema:"minItems=1"`
	// Batch is the most messages one batch publishes. Default 500.
	Batch int `json:"batch,omitempty" jsonschema:"minimum=1"`
}

// OutboxStream is one stream of the outbox relay.
type OutboxStream struct {
	// Name is the stream, as the application stages messages with it.
	Name string `json:"name" jsonschema:"minLength=1,maxLength=200"`
	// Ordering is what a message the broker refuses for good holds back:
	// every later message of the stream (stream, the default) or only the
	// later ones of its key (key).
	Ordering string `json:"ordering,omitempty" jsonschema:"enum=stream,enum=key"`
}

// brokerURL answers the outbox's broker URL, read from the environment
// when the file names a variable.
func (o *Outbox) brokerURL() (string, error) {
	url := o.Broker
	if name, ok := strings.CutPrefix(url, "$"); ok {
		url = os.Getenv(name)
		if url == "" {
			return "", errcode.New(errcode.OutboxInvalid, "outbox: the broker's environment variable %s is not set", name).
				WithFix("set it to the broker's URL")
		}
	}
	return url, nil
}

// verifyOutbox checks the relay's jobs against the catalog (the outbox's
// tables) and that its broker answers: what `pipe verify --config` asks of
// the file's outbox.
func (p *Project) verifyOutbox(ctx context.Context, db pipeline.DB) error {
	reg, err := pipeline.NewRegistry(p.Relay.Jobs()...)
	if err != nil {
		return err
	}
	if err := reg.Verify(ctx, db); err != nil {
		return err
	}
	url, err := p.File.Outbox.brokerURL()
	if err != nil {
		return err
	}
	return broker.Probe(ctx, url) // within 10 s
}

// declareOutbox makes the file's outbox into a relay; its broker connects
// when the relay first publishes.
func declareOutbox(o *Outbox, set settings) (*outbox.Relay, error) {
	url, err := o.brokerURL()
	if err != nil {
		return nil, err
	}
	pub, err := broker.Later(url)
	if err != nil {
		return nil, err
	}
	streams := make([]outbox.Stream, len(o.Streams))
	for i, s := range o.Streams {
		streams[i] = outbox.Stream{Name: s.Name}
		switch s.Ordering {
		case "", "stream":
		case "key":
			streams[i].Ordering = outbox.ByKey
		default:
			return nil, errcode.New(errcode.OutboxInvalid, "outbox: stream %d has ordering other than stream or key", i).
				WithFix(`write "ordering": "stream" or "key"`)
		}
	}
	return outbox.New(outbox.Options{Streams: streams, Publisher: pub, Batch: o.Batch, Logger: set.logger, Listen: set.listen})
}
