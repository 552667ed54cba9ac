package natsjs

import (
	"context"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// limitsTTL is how long a subject's size limit is trusted before it is
// read again; a refusal forgets it at once, so a retry after the operator
// raised the stream's limit reads the new one.
const limitsTTL = time.Minute

// limits caches the largest message each subject's stream takes.
type limits struct {
	mu sync.Mutex
	by map[string]limit
}

type limit struct {
	bytes int64
	at    time.Time
}

// of answers the largest message subject takes: the server's max_payload,
// or the stream's max message size when it is smaller. A subject no stream
// answers for has the server's limit alone (the publish then fails and is
// retried).
func (l *limits) of(ctx context.Context, js jetstream.JetStream, subject string, maxPayload int64) (int64, error) {
	l.mu.Lock()
	c, ok := l.by[subject]
	l.mu.Unlock()
	if ok && time.Since(c.at) < limitsTTL {
		return c.bytes, nil
	}
	c = limit{bytes: maxPayload, at: time.Now()}
	if name, err := js.StreamNameBySubject(ctx, subject); err == nil {
		if st, err := js.Stream(ctx, name); err == nil {
			if m := int64(st.CachedInfo().Config.MaxMsgSize); m > 0 && (c.bytes <= 0 || m < c.bytes) {
				c.bytes = m
			}
		}
	}
	l.mu.Lock()
	if l.by == nil {
		l.by = map[string]limit{}
	}
	l.by[subject] = c
	l.mu.Unlock()
	return c.bytes, nil
}

func (l *limits) forget(subject string) {
	l.mu.Lock()
	delete(l.by, subject)
	l.mu.Unlock()
}

// msgSize is the size the server weighs a message at: its headers as sent
// and its payload.
func msgSize(m *nats.Msg) int64 {
	n := int64(len("NATS/1.0\r\n\r\n"))
	for k, vs := range m.Header {
		for _, v := range vs {
			n += int64(len(k) + len(v) + 4)
		}
	}
	return n + int64(len(m.Data))
}
