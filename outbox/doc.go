// Package outbox publishes what the application committed to a broker —
// NATS JetStream, RabbitMQ or Kafka — in order, never lost: [Stage] writes a
// message into pipe.outbox inside the application's own transaction, and a
// relay moves committed rows onto the broker.
//
// Rolled back, a staged message never existed; committed, it is published
// at least once, under the message id it was staged with.
package outbox
