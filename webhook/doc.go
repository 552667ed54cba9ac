// Package webhook delivers events to partners' endpoints and receives
// vendors' webhooks, both as jobs on pipe's core ([pipeline.Job]): signed,
// durable, retried, and shown by `pipe jobs show`.
//
// # Outbound: one event to one endpoint per run
//
// [New] declares a delivery job. Each run asks for its endpoint and its
// event afresh ([Options].Endpoint, [Options].Event: never checkpointed, so
// a rotated secret or a disabled endpoint takes effect on the next attempt;
// the stock [Store] reads an endpoint at most once a second, so a change
// made elsewhere takes effect within a second), signs the body and posts
// it once. The fan-out is the app's own
// EnqueueMany over its subscriptions, so retry, backoff and disabling are
// per endpoint:
//
//	deliver := webhook.MustNew("partner.webhooks", func(d Delivery) string { return d.EndpointID + "/" + d.EventID },
//		webhook.Options[Delivery]{
//			Endpoint: func(ctx context.Context, d Delivery) (webhook.Endpoint, error) { return store.Endpoint(ctx, d.EndpointID) },
//			Event:    func(ctx context.Context, d Delivery) (webhook.Event, error) { return events.ByID(ctx, d.EventID) },
//			Ledger:   webhook.PostgresLedger(pool),
//			Health:   store, // disables an endpoint after 10 failed runs in a row
//		})
//
// An answer of 2xx delivers. 429 or 503 with Retry-After is
// X_WEBHOOK_DELIVERY_THROTTLED: the retry waits it out, clamped by the
// job's Retry.MaxDelay. Another non-2xx — a 4xx, or a redirect, never
// followed — is X_WEBHOOK_DELIVERY_REJECTED, terminal. No answer, a
// timeout (the request ends a quarter of the job's Timeout, at most 1s,
// before the attempt does; 30s by default) or a 5xx is X_WEBHOOK_DELIVERY_FAILED, retried. The answer's
// body is read to at most 64 KiB and never stored. A run that fails for
// good counts against its endpoint ([Health]); at DisableAfter in a row
// (10) the endpoint is disabled and the next run is
// X_WEBHOOK_ENDPOINT_DISABLED. Re-enabling is the app's.
//
// # Outbound at volume: staged through the outbox
//
// [NewStaged] declares the same delivery with its first attempt sent
// through the outbox: [Staged.Stage] writes deliveries into pipe.outbox in
// the app's transaction, a relay given [Staged.Stream] hands them over a
// batch at a time, and each is posted once and recorded in the ledger as
// attempt 0, without a run. A delivery not delivered then becomes a run of
// [Staged.Job], and goes on as above. A staged attempt is bounded by
// [StagedTimeout]; an endpoint whose staged attempt failed is held for
// [StagedHold]: its deliveries go to runs unsent.
//
// # Signing
//
// [SignStandard], the default, is Standard Webhooks 1.0: webhook-id (the
// event's id, the same on every retry, for the receiver to dedupe),
// webhook-timestamp and webhook-signature, one "v1,<base64>" per secret
// during a rotation. Secrets are whsec_ and a base64 key ([NewSecret]).
// [SignTimestamp] is the reference specification's "t=<seconds>,v1=<hex>"
// over "v1:<t>:<id>:<topic>:<body>". [Sign] answers the headers for a
// test of a receiver.
//
// # SSRF
//
// A delivery posts to https:// only (AllowHTTP lets plain http through)
// and never reaches a loopback, private, link-local, CGNAT, unique-local,
// multicast, unspecified or cloud-metadata address (AllowPrivate lets it).
// The address is checked where the connection is dialled, on the address
// the resolver answered, so a name that resolves to a public address once
// and a private one later (DNS rebinding) is still refused; an
// IPv4-mapped IPv6 address is judged by its IPv4, and a host written as a
// number (2130706433, 0x7f000001, 127.1) by the address it names. No proxy
// is used. A refusal is X_WEBHOOK_ENDPOINT_INVALID, terminal.
//
// # Ledger and stock endpoint store
//
// [Ledger] records one [Attempt] per attempt — endpoint, event id,
// attempt, status, bytes, duration, code; never the body. [PostgresLedger]
// writes pipe.webhook_deliveries, purged by pipe's maintenance. [Store] is
// a stock endpoint store, pipe.webhook_endpoints, for apps without their
// own; `pipe webhooks endpoints` and `pipe webhooks deliveries` manage and
// read both.
//
// # Inbound
//
// [NewReceiver] declares a receiver: a job and the [http.Handler] that
// feeds it. The handler reads the exact bytes (capped by MaxBytes), asks
// the app's Verify (helpers: [VerifyStandard], [VerifyHMAC],
// [VerifyTimestamp]), enqueues durably, and only then answers 200 with the
// event id; the event id is the run's idempotency key. Its input is
// sensitive: stored, shown [redacted].
package webhook
