package errcode

// The codes of consumers (package consumer and its sources).
const (
	// ConsumerInvalid: a consumer declaration is refused — no cursor load or
	// save, a timeout, a batch below 1, a rearm that is not whole minutes
	// dividing an hour, or a job option the consumer owns.
	ConsumerInvalid Code = "X_CONSUMER_INVALID"
	// ConsumerSelfEnqueue: a consumer's open or handle enqueued (or armed)
	// the consumer itself. The enqueue would dedupe onto the running row and
	// start nothing, so it is refused; terminal.
	ConsumerSelfEnqueue Code = "X_CONSUMER_SELF_ENQUEUE"
	// ConsumerKeyInvalid: keys answered an empty key or one longer than 200
	// characters; terminal.
	ConsumerKeyInvalid Code = "X_CONSUMER_KEY_INVALID"
	// ConsumerFeedInvalid: open answered no feed, or a feed broke its
	// contract (more items than asked for, or no Committed where its source
	// needs to hear of commits); terminal.
	ConsumerFeedInvalid Code = "X_CONSUMER_FEED_INVALID"
	// ConsumerSourceInvalid: a shipped source cannot follow what it was
	// given (a table without a sequence-fed id, a sequence with a cache, a
	// stream that does not exist); terminal.
	ConsumerSourceInvalid Code = "X_CONSUMER_SOURCE_INVALID"
	// ConsumerSourceUnavailable: a shipped source's server did not answer;
	// retryable.
	ConsumerSourceUnavailable Code = "X_CONSUMER_SOURCE_UNAVAILABLE"
)

func init() {
	for _, c := range []Code{ConsumerInvalid, ConsumerSelfEnqueue, ConsumerKeyInvalid, ConsumerFeedInvalid, ConsumerSourceInvalid} {
		Register(c, Terminal)
	}
	Register(ConsumerSourceUnavailable, Retryable)
}
