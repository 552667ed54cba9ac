// Package broker opens an outbox publisher by URL, so that a relay's broker
// is configuration (pipe.json, an environment variable) rather than code:
//
//	nats://host:4222?prefix=events        JetStream (outbox/natsjs); subject prefix.stream
//	amqp://user:pass@host:5672/?exchange=x RabbitMQ (outbox/rabbit); routing key = stream
//	amqps://...                            RabbitMQ over TLS
//	kafka://host1:9092,host2:9092?prefix=p Kafka (outbox/kafka); topic p.stream
//
// Without prefix, a message's subject or topic is its outbox stream; without
// exchange, RabbitMQ's default exchange routes it to the queue named by its
// stream. It links every shipped publisher: an application that wants one
// imports that package alone.
package broker

import (
	"net/url"
	"strings"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/kafka"
	"github.com/pipekit/pipe/outbox/natsjs"
	"github.com/pipekit/pipe/outbox/rabbit"
)

// Open answers the publisher the URL names. A URL pipe cannot read is
// X_OUTBOX_INVALID; its text is never quoted (it may hold a password).
func Open(raw string) (outbox.Publisher, error) {
	scheme, base, params, err := parse(raw)
	if err != nil {
		return nil, err
	}
	switch scheme {
	case "nats":
		prefix := params.Get("prefix")
		return natsjs.Dial(scheme+"://"+base, natsjs.Options{Subject: func(e outbox.Envelope) string { return join(prefix, e.Stream) }})
	case "amqp", "amqps":
		exchange := params.Get("exchange")
		params.Del("exchange")
		u := scheme + "://" + base
		if len(params) > 0 {
			u += "?" + params.Encode()
		}
		return rabbit.Dial(u, rabbit.Options{Exchange: exchange})
	case "kafka":
		prefix := params.Get("prefix")
		hosts := strings.Split(strings.TrimSuffix(base, "/"), ",")
		return kafka.Dial(hosts, kafka.Options{Topic: func(e outbox.Envelope) string { return join(prefix, e.Stream) }})
	}
	return nil, invalid("names no broker pipe publishes to")
}

// parse splits a broker URL into its scheme (lower case), what follows it
// up to the query, and the query, refusing a URL of no known broker.
func parse(raw string) (string, string, url.Values, error) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return "", "", nil, invalid("has no scheme")
	}
	base, query, _ := strings.Cut(rest, "?")
	params, err := url.ParseQuery(query)
	if err != nil {
		return "", "", nil, invalid("has a query that does not parse")
	}
	scheme = strings.ToLower(scheme)
	switch scheme {
	case "nats", "amqp", "amqps", "kafka":
		return scheme, base, params, nil
	}
	return "", "", nil, invalid("names no broker pipe publishes to")
}

// check refuses a URL Open could not read, without connecting.
func check(raw string) error {
	_, _, _, err := parse(raw)
	return err
}

func join(prefix, stream string) string {
	if prefix == "" {
		return stream
	}
	return prefix + "." + stream
}

func invalid(what string) error {
	return errcode.New(errcode.OutboxInvalid, "outbox: the broker URL %s", what).
		WithFix("name the broker as nats://host:4222, amqp://user:password@host:5672/ or kafka://host:9092")
}
