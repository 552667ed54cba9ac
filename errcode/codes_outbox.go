package errcode

// The codes of the outbox (package outbox and its publishers).
const (
	// OutboxInvalid: an outbox relay or publisher declaration is refused —
	// no stream, a stream declared twice, no publisher, a broker URL pipe
	// cannot read. Every fault is named; terminal.
	OutboxInvalid Code = "X_OUTBOX_INVALID"
	// OutboxMessageInvalid: a message cannot be staged — no stream, a
	// stream or key too long, an empty header name. Nothing of the call is
	// staged; terminal.
	OutboxMessageInvalid Code = "X_OUTBOX_MESSAGE_INVALID"
	// OutboxPublishRefused: the broker refused a message for good (too
	// large, a subject or topic it cannot take). The row is dead-lettered
	// and the rows its ordering holds behind it wait for `pipe outbox
	// retry`; terminal.
	OutboxPublishRefused Code = "X_OUTBOX_PUBLISH_REFUSED"
	// OutboxBrokerUnavailable: the broker did not take a batch (down,
	// unreachable, no confirm in time). Nothing is marked published past
	// the last row it took; retryable.
	OutboxBrokerUnavailable Code = "X_OUTBOX_BROKER_UNAVAILABLE"
)

func init() {
	for _, c := range []Code{OutboxInvalid, OutboxMessageInvalid, OutboxPublishRefused} {
		Register(c, Terminal)
	}
	Register(OutboxBrokerUnavailable, Retryable)
}
