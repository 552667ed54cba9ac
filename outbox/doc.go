// Package outbox publishes what the application committed to a broker —
// NATS JetStream, RabbitMQ or Kafka — in order, never lost.
//
// [Stage] writes a message into pipe.outbox inside the application's own
// transaction, beside its business write. Rolled back, the message never
// existed; committed, a relay publishes it at least once, under the message
// id drawn when it was staged (a UUIDv7). [StageMany] stages a slice in one
// statement per 1,000.
//
// # The relay
//
// [New] declares a relay: one runner per stream, fleet-wide, built on the
// consumer room. Each runner follows pipe.outbox through a table tail
// (consumer/pgtail), so it never passes a row whose transaction is still
// open, reads a batch, publishes it in one call to its [Publisher] and
// records the batch — one row in pipe.outbox_batches — in the transaction
// that saves its cursor: a message is published once its stream's newest
// batch has passed it without a fault, so no published row is rewritten. Register [Relay.Jobs] with the workers and [Relay.Tasks] with the
// scheduler (the supervisor that restarts stopped runners, and the hourly
// retention); [Relay.Arm] starts the runners at once.
//
// A batch the publisher does not take falls back to one message at a time,
// in order, up to the failing one:
//
//   - a message refused for good (X_OUTBOX_PUBLISH_REFUSED) is
//     dead-lettered with its coded error and logged as
//     outbox.publish.failed; under [ByStream] every later message of the
//     stream is held behind it, under [ByKey] only those of its key. [Retry]
//     releases them, and the relay publishes them in order ahead of the
//     stream's new messages;
//   - a broker away (X_OUTBOX_BROKER_UNAVAILABLE) stops the batch there: the
//     messages before it are marked, the attempt fails and is retried, and
//     the runner resumes from the first unmarked message.
//
// A batch is one look at the table: a runner publishes what is committed
// when it looks, so a steady trickle goes out as it comes (Poll, 10 ms).
//
// # Publishers
//
// Each shipped publisher is a package of its own, so that an application
// links only the broker it uses: outbox/natsjs (the message id as
// Nats-Msg-Id, deduplicated by the server), outbox/rabbit (publisher
// confirms, message-id) and outbox/kafka (the idempotent producer, the key
// as the record key); outbox/broker opens one by URL, outbox/outboxtest is
// the conformance suite each runs against its broker.
//
// # Retention and status
//
// The relay's task <Name>.prune deletes messages published more than
// Retain (24 h) ago ([Prune]); [Status] answers each stream's lag, oldest
// unpublished message, publish rate and dead and held counts, as `pipe
// outbox status` prints them and outbox/outboxmetrics serves them.
//
// # Errors
//
// X_OUTBOX_INVALID (a declaration, a broker URL) and X_OUTBOX_MESSAGE_INVALID
// (a message Stage cannot take, by position) are terminal, as is
// X_OUTBOX_PUBLISH_REFUSED; X_OUTBOX_BROKER_UNAVAILABLE is retried. No
// message quotes a payload, a key or a header.
package outbox
