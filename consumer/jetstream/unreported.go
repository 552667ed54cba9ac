package jetstream

import (
	"github.com/pipekit/pipe/errcode"
)

// unreported counts the messages a feed handed over whose commit it has not
// heard of (Committed). The run reports every batch it commits, so at most
// a batch is ever unreported; a feed whose commits are never reported — a
// wrapper of it that does not forward Committed — acknowledges nothing, and
// the server stops delivering once MaxAckPending messages wait for their
// acknowledgement.
type unreported struct {
	n int
	// starved: a read found nothing while MaxAckPending messages were
	// unreported, so the server may have nothing more to send until some
	// are acknowledged.
	starved bool
}

// handed counts n more messages handed over by a read.
func (u *unreported) handed(n, maxAckPending int) {
	u.n += n
	u.starved = n == 0 && u.n >= maxAckPending
}

// reported counts n messages whose commit was reported.
func (u *unreported) reported(n int) {
	u.n, u.starved = max(u.n-n, 0), false
}

// check refuses a read after a starved one with no commit reported between
// them: the run reports a batch's commit before it reads the next, so the
// commits are not reaching the feed, and it would wait forever.
func (u *unreported) check(o Options) error {
	if !u.starved || u.n < o.MaxAckPending {
		return nil
	}
	return errcode.New(errcode.ConsumerFeedInvalid, "jetstream source: stream %s: %d messages were handed over and no commit of theirs reached the feed, so none was acknowledged and the server delivers no more (MaxAckPending %d)", o.Stream, u.n, o.MaxAckPending).
		WithFix("a feed wrapping the source's must implement Committed and call the source feed's Committed with each committed batch's messages")
}
