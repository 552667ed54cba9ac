package jetstream

import (
	"context"
	"errors"
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
	// then a hash of the key, so that two keys never share one. On an
	// Interest stream a key's durable alternates between this name and the
	// name followed by "~b" (see the package doc), so a name must not hold
	// "~", nor what NATS refuses in one (blanks, ".", "*", ">", "/", "\").
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
// (from the stream's first message for the zero cursor). It places the
// key's durable consumer there first (see the package doc): the cursor saved
// in Postgres is the truth, the durable's own position only follows it, so a
// message delivered to a run that died is delivered again at once and in
// order, never after an acknowledgement timeout behind later ones.
func (s *Source) Open(ctx context.Context, key string, cursor uint64) (consumer.Feed[Message], error) {
	st, err := s.js.Stream(ctx, s.o.Stream)
	if errors.Is(err, js.ErrStreamNotFound) {
		return nil, errcode.Wrap(err, errcode.ConsumerSourceInvalid, "jetstream source: stream %s does not exist", s.o.Stream).
			WithFix("create the stream, or name an existing one in Stream")
	}
	if err != nil {
		return nil, unavailable(s.o.Stream, "look up the stream", err)
	}
	retention := st.CachedInfo().Config.Retention
	cons, err := s.place(ctx, st, retention, key, cursor)
	if err != nil {
		return nil, err
	}
	consumer.NeedsCommitted(ctx)
	return &feed{s: s, cons: cons, explicit: retention == js.WorkQueuePolicy, opened: cursor, handed: cursor}, nil
}

// Lag answers how many messages of key's feed are not yet acknowledged —
// delivered and waiting for their batch to commit, or not delivered — as the
// key's durable consumer (the newer, when an open left two) counts them. tx
// is unused.
func (s *Source) Lag(ctx context.Context, _ pgx.Tx, key string, _ uint64) (int64, error) {
	names, err := s.names(key)
	if err != nil {
		return 0, err
	}
	held, err := s.existing(ctx, names)
	if err != nil {
		return 0, err
	}
	if len(held) == 0 {
		return 0, unavailable(s.o.Stream, "look up the durable consumer", js.ErrConsumerNotFound)
	}
	info := held[len(held)-1].info
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
