// Package jetstream follows a NATS JetStream stream as a consumer's feed,
// through a durable pull consumer per key (github.com/nats-io/nats.go). The
// cursor is the stream sequence of the last message handled.
//
//	nc, _ := nats.Connect(url)
//	src := jetstream.MustNew(nc, jetstream.Options{Stream: "ORDERS",
//		Subjects: func(key string) []string { return []string{"orders." + key} }})
//
//	sync := consumer.MustNew(consumer.Options[jetstream.Message, uint64]{
//		Name:   "orders.sync",
//		Keys:   accounts,
//		Open:   src.Open,
//		Lag:    src.Lag,
//		Handle: func(ctx context.Context, tx pgx.Tx, key string, msgs []jetstream.Message) (uint64, error) {
//			// ... write the effect of msgs through tx ...
//			return jetstream.Cursor(msgs), nil
//		},
//		Cursor: consumer.StoredCursor[uint64](),
//	})
//
// # Postgres holds the position
//
// The cursor a batch commits with its effect is the truth; the durable
// consumer's own position only follows it. Each open replaces the key's
// durable with one delivering from the message after the cursor (from the
// stream's first for the zero cursor). So a message a dead run was handed
// and never acknowledged comes again at once, first, in order — not after
// the acknowledgement wait, behind later messages, where a cursor already
// past them would drop it. After each commit the feed acknowledges the
// batch, so the durable's acknowledgement floor, which `nats consumer info`
// shows, is the committed cursor. NATS cannot move a durable's start
// sequence in place (an update may not change its deliver policy), so the
// replacement is a new consumer, and how it replaces the old depends on the
// stream's retention:
//
//   - Limits: the durable is deleted and created again, under the same name;
//     deleting a consumer drops no message of such a stream.
//   - Interest: a message is kept only while a consumer still needs it, and
//     deleting the only durable interested in a message drops it (the
//     server purges the stream when its last consumer goes). So the
//     replacement is created first, at the cursor, and only then is the old
//     one deleted: a key's durable alternates between two names,
//     Durable(key) and that name followed by "~b". An open that died between
//     the two steps left both, each holding every message after the cursor
//     (a durable's acknowledgement floor never passes the committed
//     cursor); the next open deletes the older, then replaces the other. An
//     Interest stream keeps nothing for a key before its durable first
//     exists: arm the consumer before publishing to it. It needs room for
//     one consumer more than it has keys (MaxConsumers).
//   - WorkQueue: each message goes to one consumer, which must acknowledge
//     every message explicitly and deliver from the stream's first, and the
//     stream removes a message once it is acknowledged; deleting a consumer
//     drops nothing. So the durable is deleted and created again with
//     explicit acknowledgements, and delivers from the first message left:
//     the ones up to the cursor (committed, their acknowledgement lost with
//     the run) are acknowledged as they come and skipped, and after each
//     commit every message of the batch is acknowledged. Each key must read
//     subjects of its own (Subjects): two keys, or another consumer, over
//     one subject are refused.
//
// # Reading
//
// A read takes the messages waiting (a no-wait pull of up to the batch);
// with none it pulls one, waiting up to the consumer's wait, and then the
// ones waiting behind it. Every pull is read to its end, so no delivery is
// left on an abandoned subscription. Each delivery takes the next consumer
// sequence: a missing one (a delivery the client never saw) fails the
// attempt with X_CONSUMER_SOURCE_UNAVAILABLE rather than let later messages
// pass it; the next attempt reopens at the cursor. A redelivery of a
// message already handed over (its batch took longer than AckWait) is
// skipped. A stream does not end: the feed never answers io.EOF.
//
// [Source.Lag] reports the messages the durable has not had acknowledged:
// delivered and in hand, or not yet delivered (NumPending + NumAckPending).
//
// # Committed
//
// The feed acknowledges a batch only when the run tells it the batch
// committed ([consumer.Committer]); unacknowledged, messages pile up until
// MaxAckPending, where the server stops delivering. Open calls
// [consumer.NeedsCommitted], so a feed that reaches the run through an app's
// wrapper without a Committed method is refused before it is read. A
// wrapper that has one and does not pass it on is caught when it stalls: a
// read after one that found nothing while MaxAckPending messages were
// handed over and no commit of theirs reached the feed fails the run with
// X_CONSUMER_FEED_INVALID.
//
// # Servers
//
// One subject filter works with every JetStream server; several need NATS
// 2.10 or later. The tests run against a real server: NATS_URL, else
// 127.0.0.1:4222 when it answers, else one started in process
// (github.com/nats-io/nats-server/v2).
//
// # Errors
//
// X_CONSUMER_INVALID for a bad declaration or a Durable name the source
// cannot use; X_CONSUMER_SOURCE_INVALID (terminal) for a stream that does
// not exist, or a WorkQueue stream where another consumer reads the key's
// subjects; X_CONSUMER_FEED_INVALID (terminal) for a feed whose commits do
// not reach it; X_CONSUMER_SOURCE_UNAVAILABLE (retried) when the server does
// not answer or a delivery was missed.
package jetstream
