package broker

import (
	"context"
	"time"
)

// probeTimeout bounds a Probe whose context has no deadline.
const probeTimeout = 10 * time.Second

// Probe connects to the broker url names and lets go: nil when it answers,
// else its coded error — X_OUTBOX_INVALID for a URL pipe cannot read,
// X_OUTBOX_BROKER_UNAVAILABLE for a broker that does not answer
// before ctx ends (within 10 s when ctx has no deadline). `pipe
// verify --config` asks it of the project file's outbox.
func Probe(ctx context.Context, url string) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, probeTimeout)
		defer cancel()
	}
	p, err := Open(url)
	if err != nil {
		return err
	}
	defer func() { _ = p.Close() }()
	if pinger, ok := p.(interface{ Ping(context.Context) error }); ok {
		return pinger.Ping(ctx)
	}
	return nil
}
