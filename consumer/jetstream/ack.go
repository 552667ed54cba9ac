package jetstream

import (
	"context"

	js "github.com/nats-io/nats.go/jetstream"
)

// Committed acknowledges the batch once it has committed. With the ack-all
// policy the last message acknowledges every one before it, so the
// durable's acknowledgement floor follows the saved cursor; on a WorkQueue
// stream each message is acknowledged, and the stream removes it.
func (f *feed) Committed(_ context.Context, msgs []Message) error {
	f.pending.reported(len(msgs))
	if len(msgs) == 0 {
		return nil
	}
	if !f.explicit {
		msgs = msgs[len(msgs)-1:]
	}
	for _, m := range msgs {
		if err := m.msg.Ack(); err != nil {
			return unavailable(f.s.o.Stream, "acknowledge", err)
		}
	}
	return nil
}

// settle handles a delivery the feed skips, at stream sequence seq: one up
// to the cursor it opened at was committed by an earlier run, and on a
// WorkQueue stream (which delivers from its first message) it is
// acknowledged now, so that the stream removes it; a redelivery of a message
// in hand waits for its batch's Committed.
func (f *feed) settle(m js.Msg, seq uint64) error {
	if !f.explicit || seq > f.opened {
		return nil
	}
	if err := m.Ack(); err != nil {
		return unavailable(f.s.o.Stream, "acknowledge a committed message", err)
	}
	return nil
}
