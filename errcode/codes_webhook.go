package errcode

// The codes of outbound and inbound webhooks (package webhook).
const (
	// WebhookEndpointUnknown: the endpoint a delivery names does not exist
	// (terminal).
	WebhookEndpointUnknown Code = "X_WEBHOOK_ENDPOINT_UNKNOWN"
	// WebhookEndpointInvalid: an endpoint's URL is not one a delivery may
	// reach — not https without AllowHTTP, or a host that resolves to a
	// loopback, private, link-local, CGNAT, unique-local, multicast,
	// unspecified or metadata address without AllowPrivate — or it has no
	// usable secret (terminal).
	WebhookEndpointInvalid Code = "X_WEBHOOK_ENDPOINT_INVALID"
	// WebhookEndpointDisabled: the endpoint is disabled, by the app or
	// after too many consecutive failed runs (terminal; re-enabling is the
	// app's).
	WebhookEndpointDisabled Code = "X_WEBHOOK_ENDPOINT_DISABLED"
	// WebhookEventUnknown: the event a delivery names does not exist
	// (terminal).
	WebhookEventUnknown Code = "X_WEBHOOK_EVENT_UNKNOWN"
	// WebhookEventInvalid: the event has no id, or an id that is not 1-256
	// printable ASCII characters (terminal).
	WebhookEventInvalid Code = "X_WEBHOOK_EVENT_INVALID"
	// WebhookDeliveryFailed: the endpoint could not be reached, timed out,
	// or answered 5xx (retryable).
	WebhookDeliveryFailed Code = "X_WEBHOOK_DELIVERY_FAILED"
	// WebhookDeliveryThrottled: the endpoint answered 429 or 503 with a
	// Retry-After; the retry waits it out, clamped by the job's MaxDelay.
	WebhookDeliveryThrottled Code = "X_WEBHOOK_DELIVERY_THROTTLED"
	// WebhookDeliveryRejected: the endpoint answered a non-2xx status that
	// is not a failure or a throttle — a 4xx, or a redirect, which is not
	// followed (terminal).
	WebhookDeliveryRejected Code = "X_WEBHOOK_DELIVERY_REJECTED"
	// WebhookSignatureInvalid: an inbound webhook's signature is missing or
	// matches no secret (answered 401, nothing queued).
	WebhookSignatureInvalid Code = "X_WEBHOOK_SIGNATURE_INVALID"
	// WebhookSignatureStale: an inbound webhook's signed timestamp is
	// outside the tolerance (answered 401, nothing queued).
	WebhookSignatureStale Code = "X_WEBHOOK_SIGNATURE_STALE"
	// WebhookEventIDInvalid: an inbound webhook's event id is not 1-256
	// printable ASCII characters (answered 422, never echoed).
	WebhookEventIDInvalid Code = "X_WEBHOOK_EVENT_ID_INVALID"
	// WebhookReceiverUnavailable: an inbound webhook could not be queued
	// durably (answered 503 with Retry-After, so the sender redelivers).
	WebhookReceiverUnavailable Code = "X_WEBHOOK_RECEIVER_UNAVAILABLE"
	// WebhookReceiverInvalid: a receiver's declaration is refused.
	WebhookReceiverInvalid Code = "X_WEBHOOK_RECEIVER_INVALID"
	// BodyInvalid: a request body is over its limit or unreadable
	// (answered 413 when over the limit).
	BodyInvalid Code = "X_BODY_INVALID"
)

func init() {
	for _, c := range []Code{
		WebhookEndpointUnknown, WebhookEndpointInvalid, WebhookEndpointDisabled,
		WebhookEventUnknown, WebhookEventInvalid, WebhookDeliveryRejected,
		WebhookSignatureInvalid, WebhookSignatureStale, WebhookEventIDInvalid,
		WebhookReceiverInvalid, BodyInvalid,
	} {
		Register(c, Terminal)
	}
	Register(WebhookDeliveryThrottled, RetryAfter)
}
