package broker

import (
	"context"
	"sync"

	"github.com/pipekit/pipe/outbox"
)

// Later checks url now and answers a publisher that connects at its first
// Publish (and again at the next one, when connecting failed): a relay
// declared from a project file opens no connection until it runs.
func Later(url string) (outbox.Publisher, error) {
	if err := check(url); err != nil {
		return nil, err
	}
	return &later{url: url}, nil
}

type later struct {
	url string
	mu  sync.Mutex
	p   outbox.Publisher
}

func (l *later) Publish(ctx context.Context, batch []outbox.Envelope) error {
	l.mu.Lock()
	if l.p == nil {
		p, err := Open(l.url)
		if err != nil {
			l.mu.Unlock()
			return err
		}
		l.p = p
	}
	p := l.p
	l.mu.Unlock()
	return p.Publish(ctx, batch)
}

func (l *later) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.p == nil {
		return nil
	}
	err := l.p.Close()
	l.p = nil
	return err
}
