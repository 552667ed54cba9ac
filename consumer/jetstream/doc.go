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
// consumer's own position only follows it. Each open deletes the key's
// durable and creates it again to deliver from the message after the
// cursor (from the stream's first for the zero cursor), with the ack-all
// policy. So a message a dead run was handed and never acknowledged comes
// again at once, first, in order — not after the acknowledgement wait,
// behind later messages, where a cursor already past them would drop it.
// After each commit the feed acknowledges the batch's last message, so the
// durable's acknowledgement floor, which `nats consumer info` shows, is the
// committed cursor.
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
// # Servers
//
// One subject filter works with every JetStream server; several need NATS
// 2.10 or later. The tests run against a real server: NATS_URL, else
// 127.0.0.1:4222 when it answers, else one started in process
// (github.com/nats-io/nats-server/v2).
//
// # Errors
//
// X_CONSUMER_INVALID for a bad declaration; X_CONSUMER_SOURCE_INVALID
// (terminal) for a stream that does not exist; X_CONSUMER_SOURCE_UNAVAILABLE
// (retried) when the server does not answer or a delivery was missed.
package jetstream
