package jetstream

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"
	js "github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/errcode"
)

// Defaults of [Options].
const (
	DefaultAckWait       = 30 * time.Second
	DefaultMaxAckPending = 10_000
)

// Options declare a JetStream source. Each field's comment gives its
// default.
type Options struct {
	// Stream is the stream's name. Required.
	Stream string
	// Subjects answers the subjects a key's feed reads (filters of the
	// stream's subjects, wildcards allowed). Default: every message of the
	// stream.
	Subjects func(key string) []string
	// Durable answers the durable consumer's name of a key. Default: "pipe_"
	// and the key, characters NATS refuses in a name replaced by "_" and
	// then a hash of the key, so that two keys never share one.
	Durable func(key string) string
	// AckWait is how long the server waits for the acknowledgement of a
	// delivered message before it delivers it again (the feed skips a
	// redelivery of what it already handed over). Default 30s.
	AckWait time.Duration
	// MaxAckPending is how many delivered messages may wait for their
	// acknowledgement; it must be above the consumer's batch. Default 10,000.
	MaxAckPending int
}

// Message is one message of the stream.
type Message struct {
	// Sequence is the message's stream sequence: the cursor past it.
	Sequence uint64
	Subject  string
	// Time is when the stream stored the message.
	Time   time.Time
	Header nats.Header
	Data   []byte

	msg js.Msg
}

// Source reads a stream for a consumer; Open is a consumer's Open, Lag its
// Lag.
type Source struct {
	js js.JetStream
	o  Options
}

// New declares a source over the connection nc. A bad declaration is
// X_CONSUMER_INVALID; the stream is checked when a feed opens.
func New(nc *nats.Conn, o Options) (*Source, error) {
	var faults []string
	if nc == nil {
		faults = append(faults, "the connection is nil")
	}
	if strings.TrimSpace(o.Stream) == "" {
		faults = append(faults, "Stream is empty")
	}
	if o.AckWait < 0 || o.MaxAckPending < 0 {
		faults = append(faults, "AckWait and MaxAckPending must not be negative")
	}
	if len(faults) > 0 {
		return nil, errcode.New(errcode.ConsumerInvalid, "jetstream source: %s", strings.Join(faults, "; ")).
			WithFix("correct the source's declaration")
	}
	j, err := js.New(nc)
	if err != nil {
		return nil, unavailable(o.Stream, "connect", err)
	}
	if o.AckWait == 0 {
		o.AckWait = DefaultAckWait
	}
	if o.MaxAckPending == 0 {
		o.MaxAckPending = DefaultMaxAckPending
	}
	if o.Durable == nil {
		o.Durable = DurableName
	}
	return &Source{js: j, o: o}, nil
}

// MustNew is [New] that panics on a bad declaration.
func MustNew(nc *nats.Conn, o Options) *Source {
	s, err := New(nc, o)
	if err != nil {
		panic(err)
	}
	return s
}

// Open answers key's feed of the messages after the stream sequence cursor
// (from the stream's first message for the zero cursor). It recreates the
// key's durable consumer to start there: the cursor saved in Postgres is the
// truth, the durable's own position only follows it, so a message delivered
// to a run that died is delivered again at once and in order, never after
// an acknowledgement timeout behind later ones.
func (s *Source) Open(ctx context.Context, key string, cursor uint64) (consumer.Feed[Message], error) {
	st, err := s.js.Stream(ctx, s.o.Stream)
	if errors.Is(err, js.ErrStreamNotFound) {
		return nil, errcode.Wrap(err, errcode.ConsumerSourceInvalid, "jetstream source: stream %s does not exist", s.o.Stream).
			WithFix("create the stream, or name an existing one in Stream")
	}
	if err != nil {
		return nil, unavailable(s.o.Stream, "look up the stream", err)
	}
	name := s.o.Durable(key)
	if err := st.DeleteConsumer(ctx, name); err != nil && !errors.Is(err, js.ErrConsumerNotFound) {
		return nil, unavailable(s.o.Stream, "reset the durable consumer", err)
	}
	cfg := js.ConsumerConfig{Durable: name, AckPolicy: js.AckAllPolicy, AckWait: s.o.AckWait,
		MaxAckPending: s.o.MaxAckPending, DeliverPolicy: js.DeliverAllPolicy}
	if cursor > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = js.DeliverByStartSequencePolicy, cursor+1
	}
	if s.o.Subjects != nil {
		// One filter in the field every server version reads; several
		// need a server of 2.10 or later.
		if subjects := s.o.Subjects(key); len(subjects) == 1 {
			cfg.FilterSubject = subjects[0]
		} else {
			cfg.FilterSubjects = subjects
		}
	}
	cons, err := st.CreateConsumer(ctx, cfg)
	if err != nil {
		return nil, unavailable(s.o.Stream, "create the durable consumer", err)
	}
	return &feed{s: s, cons: cons, handed: cursor}, nil
}

// Lag answers how many messages of key's feed are not yet acknowledged —
// delivered and waiting for their batch to commit, or not delivered — as the
// durable consumer counts them. tx is unused.
func (s *Source) Lag(ctx context.Context, _ pgx.Tx, key string, _ uint64) (int64, error) {
	cons, err := s.js.Consumer(ctx, s.o.Stream, s.o.Durable(key))
	if err != nil {
		return 0, unavailable(s.o.Stream, "look up the durable consumer", err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return 0, unavailable(s.o.Stream, "read the durable consumer", err)
	}
	return int64(info.NumPending) + int64(info.NumAckPending), nil
}

// Cursor answers the cursor past a batch: the last message's stream
// sequence. It is the usual Handle's answer.
func Cursor(msgs []Message) uint64 {
	if len(msgs) == 0 {
		return 0
	}
	return msgs[len(msgs)-1].Sequence
}

// DurableName is the default durable name of a key: "pipe_" and the key,
// any character outside A-Z, a-z, 0-9, "-" and "_" replaced by "_", and
// then, when one was, "_" and a hash of the key.
func DurableName(key string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, key)
	if safe == key {
		return "pipe_" + key
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	return fmt.Sprintf("pipe_%s_%016x", safe, h.Sum64())
}

func unavailable(stream, what string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return errcode.Wrap(err, errcode.ConsumerSourceUnavailable, "jetstream source: stream %s: %s failed", stream, what).
		WithFix("check the NATS server and the connection; the attempt is retried")
}
