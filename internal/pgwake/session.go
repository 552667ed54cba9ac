package pgwake

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// loop holds the LISTEN session until ctx ends, dialling again after a
// loss (1/10 s, doubling to 5 s apart).
func (l *Listener) loop(ctx context.Context, done chan struct{}) {
	defer close(done)
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := l.session(ctx)
		l.proven.Store(false)
		l.wake("", true)
		if ctx.Err() != nil {
			return
		}
		l.o.Logger.Warn(l.o.Event+".lost", "channel", l.o.Channel, "error", errText(err), "then", "polling")
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// session listens on one connection, sends the probe, and signals keys
// until the connection fails or ctx ends.
func (l *Listener) session(ctx context.Context) error {
	conn, err := Dial(ctx, l.o.Listen)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "listen "+pgx.Identifier{l.o.Channel}.Sanitize()); err != nil {
		return err
	}
	probe := probeID()
	if _, err := l.o.Pool.Exec(ctx, "select pg_notify($1, $2)", l.o.Channel, probe); err != nil {
		return err
	}
	deadline := time.Now().Add(ProbeTimeout)
	reported := false
	for {
		wait := time.Minute
		if !reported {
			wait = time.Until(deadline)
		}
		wctx, cancel := context.WithTimeout(ctx, wait)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil && errors.Is(wctx.Err(), context.DeadlineExceeded):
			if !reported {
				reported = true
				l.o.Logger.Warn(l.o.Event+".polling", "channel", l.o.Channel,
					"reason", "the probe notification did not come back", "fix", "give the LISTEN session a direct or session-pooled connection")
			}
		case err != nil:
			return err
		case n.Payload == probe:
			if !reported || !l.Proven() {
				l.o.Logger.Info(l.o.Event+".live", "channel", l.o.Channel)
			}
			reported = true
			l.proven.Store(true)
			l.wake("", true)
		default:
			l.wake(n.Payload, n.Payload == "")
		}
	}
}

// errText answers an error's coded text (never a URL), or nothing for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return errcode.Postgres(context.Background(), err, "wake").Error()
}
