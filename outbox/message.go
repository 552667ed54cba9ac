package outbox

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Limits of a staged message.
const (
	// MaxStreamLen is the longest stream name: a stream's relay follows it
	// as a consumer key.
	MaxStreamLen = 200
	// MaxKeyLen is the longest message key, in bytes.
	MaxKeyLen = 1024
	// StageChunk is how many messages one statement of [StageMany] stages.
	StageChunk = 1000
)

// Message is one message for a broker.
type Message struct {
	// Stream is the outbox stream the message goes out on: one relay runner
	// follows each, and a publisher maps it to the broker's subject, topic
	// or routing key. 1 to 200 characters. Required.
	Stream string
	// Key orders the message within its stream when the stream is
	// relayed ByKey, and is the record key on Kafka. Up to 1,024 bytes;
	// empty is a key like any other.
	Key string
	// Headers travel with the message as the broker's headers.
	Headers map[string]string
	// Payload is the message body, published as is.
	Payload []byte
}

// Stage writes m into pipe.outbox through tx — the application's
// transaction — and answers the message id it is published under. Rolled
// back, the message never existed; committed, a relay publishes it at least
// once, under that id (a broker that deduplicates, like JetStream, keeps
// one copy). db may also be a pool: the message is then committed at once.
//
// The staging statement also notifies the stream's relay (WakeChannel),
// delivered when the transaction commits, at most once per stream per
// [DefaultWakeThrottle] from this process (see [SetWakeThrottle]).
//
// A message that cannot be staged is X_OUTBOX_MESSAGE_INVALID and nothing
// is written.
func Stage(ctx context.Context, db pipeline.DB, m Message) (string, error) {
	if err := check(0, m); err != nil {
		return "", err
	}
	id, headers, err := prepare(0, m)
	if err != nil {
		return "", err
	}
	_, err = db.Exec(ctx, sqlStage, m.Stream, m.Key, id, headers, payload(m), len(notifying(db, []Message{m})) > 0)
	if err != nil {
		return "", errcode.Postgres(ctx, err, "outbox: stage a message")
	}
	return id.String(), nil
}

// StageMany stages ms in order through db, one statement per 1,000
// messages, and answers their message ids in the same order. Every message
// is checked before the first is written: one that cannot be staged refuses
// the call, X_OUTBOX_MESSAGE_INVALID naming its position. Through a
// transaction the batch commits or vanishes whole; through a pool it is
// atomic per 1,000.
func StageMany(ctx context.Context, db pipeline.DB, ms []Message) ([]string, error) {
	for i, m := range ms {
		if err := check(i, m); err != nil {
			return nil, err
		}
	}
	ids := make([]string, 0, len(ms))
	for lo := 0; lo < len(ms); lo += StageChunk {
		chunk, err := stageChunk(ctx, db, lo, ms[lo:min(lo+StageChunk, len(ms))])
		if err != nil {
			return nil, err
		}
		ids = append(ids, chunk...)
	}
	return ids, nil
}

func stageChunk(ctx context.Context, db pipeline.DB, lo int, ms []Message) ([]string, error) {
	streams, keys := make([]string, len(ms)), make([]string, len(ms))
	mids, headers, payloads := make([]uuid.UUID, len(ms)), make([][]byte, len(ms)), make([][]byte, len(ms))
	ids := make([]string, len(ms))
	for i, m := range ms {
		id, h, err := prepare(lo+i, m)
		if err != nil {
			return nil, err
		}
		streams[i], keys[i], mids[i], headers[i], payloads[i] = m.Stream, m.Key, id, h, payload(m)
		ids[i] = id.String()
	}
	if _, err := db.Exec(ctx, sqlStageMany, streams, keys, mids, headers, payloads, notifying(db, ms)); err != nil {
		return nil, errcode.Postgres(ctx, err, "outbox: stage messages")
	}
	return ids, nil
}

// check refuses a message that cannot be staged, naming its position i and
// the fault, never a value.
func check(i int, m Message) error {
	var fault string
	switch {
	case m.Stream == "":
		fault = "has no stream"
	case len(m.Stream) > MaxStreamLen:
		fault = "has a stream name longer than 200 characters"
	case len(m.Key) > MaxKeyLen:
		fault = "has a key longer than 1,024 bytes"
	}
	for name := range m.Headers {
		if name == "" {
			fault = "has a header without a name"
		}
	}
	if fault == "" {
		return nil
	}
	return errcode.New(errcode.OutboxMessageInvalid, "outbox: message %d %s", i, fault).
		WithFix("give every message a stream of 1 to 200 characters, a key of at most 1,024 bytes and named headers")
}

// prepare draws the message id (a UUIDv7: time-ordered) and encodes the
// headers.
func prepare(i int, m Message) (uuid.UUID, []byte, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.UUID{}, nil, errcode.Wrap(err, errcode.Invariant, "outbox: draw message %d's id", i)
	}
	if len(m.Headers) == 0 {
		return id, nil, nil
	}
	h, err := json.Marshal(m.Headers)
	if err != nil {
		return uuid.UUID{}, nil, errcode.Wrap(err, errcode.OutboxMessageInvalid, "outbox: message %d's headers do not encode", i)
	}
	return id, h, nil
}

// payload answers a non-nil payload: the column is not null, and an empty
// message is a message.
func payload(m Message) []byte {
	if m.Payload == nil {
		return []byte{}
	}
	return m.Payload
}
