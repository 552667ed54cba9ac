package jetstream

import (
	"context"
	"time"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/errcode"
)

// feed reads one key's durable consumer. Every delivery takes the next
// consumer sequence, so the feed checks that none is missing: a delivery it
// never saw (a pull it gave up on) would otherwise be passed by later ones
// and skipped. A redelivery of a message already handed over is skipped.
type feed struct {
	s        *Source
	cons     js.Consumer
	explicit bool   // a WorkQueue stream: each message is acknowledged
	opened   uint64 // the cursor the feed opened at: committed up to it
	handed   uint64 // the stream sequence of the last message handed over
	dseq     uint64 // the consumer sequence of the last delivery seen
	stopped  bool   // a read was cut short: deliveries may be missing
	pending  unreported
}

// Read answers up to max messages: those waiting now, else the first to
// arrive within wait and those waiting behind it. A cancelled ctx ends the
// read at once; the feed is then done (the run is ending, and its next
// attempt reopens at the saved cursor).
func (f *feed) Read(ctx context.Context, max int, wait time.Duration) ([]Message, error) {
	if f.stopped {
		return nil, f.stoppedErr()
	}
	if err := f.pending.check(f.s.o); err != nil {
		return nil, err
	}
	out, err := f.read(ctx, max, wait)
	f.pending.handed(len(out), f.s.o.MaxAckPending)
	return out, err
}

// read is one Read: a no-wait pull, else a pull of one waiting up to wait
// and a no-wait pull of the rest.
func (f *feed) read(ctx context.Context, max int, wait time.Duration) ([]Message, error) {
	out, err := f.fetch(ctx, func() (js.MessageBatch, error) { return f.cons.FetchNoWait(max) })
	if err != nil || len(out) > 0 {
		return out, err
	}
	if wait <= 0 {
		return nil, nil
	}
	out, err = f.fetch(ctx, func() (js.MessageBatch, error) { return f.cons.Fetch(1, js.FetchMaxWait(wait)) })
	if err != nil || len(out) == 0 || max == 1 {
		return out, err
	}
	more, err := f.fetch(ctx, func() (js.MessageBatch, error) { return f.cons.FetchNoWait(max - 1) })
	return append(out, more...), err
}

// fetch runs one pull and reads it to its end.
func (f *feed) fetch(ctx context.Context, pull func() (js.MessageBatch, error)) ([]Message, error) {
	b, err := pull()
	if err != nil {
		return nil, unavailable(f.s.o.Stream, "fetch", err)
	}
	var out []Message
	for {
		select {
		case <-ctx.Done():
			f.stopped = true
			return nil, ctx.Err()
		case m, ok := <-b.Messages():
			if !ok {
				if err := b.Error(); err != nil {
					return out, unavailable(f.s.o.Stream, "fetch", err)
				}
				return out, nil
			}
			msg, keep, err := f.accept(m)
			if err != nil {
				return out, err
			}
			if keep {
				out = append(out, msg)
			}
		}
	}
}

// accept checks one delivery: the next consumer sequence, and a stream
// sequence past the last handed over (else a redelivery, skipped).
func (f *feed) accept(m js.Msg) (Message, bool, error) {
	md, err := m.Metadata()
	if err != nil {
		return Message{}, false, unavailable(f.s.o.Stream, "read a message's metadata", err)
	}
	if md.Sequence.Consumer != f.dseq+1 {
		f.stopped = true
		return Message{}, false, f.stoppedErr()
	}
	f.dseq = md.Sequence.Consumer
	if md.Sequence.Stream <= f.handed {
		return Message{}, false, f.settle(m, md.Sequence.Stream)
	}
	f.handed = md.Sequence.Stream
	return Message{Sequence: md.Sequence.Stream, Subject: m.Subject(), Time: md.Timestamp,
		Header: m.Headers(), Data: m.Data(), msg: m}, true, nil
}

func (f *feed) stoppedErr() error {
	return errcode.New(errcode.ConsumerSourceUnavailable, "jetstream source: stream %s: a delivery was missed; the feed must reopen at the saved cursor", f.s.o.Stream).
		WithFix("none: the attempt is retried and the durable consumer replaced at the cursor")
}

// Close leaves the durable consumer in place: the next open replaces it.
func (f *feed) Close() error { return nil }
