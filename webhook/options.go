package webhook

import (
	"context"
	"crypto/tls"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// Defaults of [Options].
const (
	// DefaultDisableAfter is how many consecutive failed runs disable an
	// endpoint.
	DefaultDisableAfter = 10
	// DefaultTimeout bounds one delivery's request when the job declares
	// no Timeout.
	DefaultTimeout = 30 * time.Second
	// MaxResponseBytes is how much of an endpoint's answer is read (and
	// dropped: it is never stored) before the connection is reused.
	MaxResponseBytes = 64 << 10
)

// Endpoint is where one delivery goes, read afresh by every attempt.
type Endpoint struct {
	// ID names the endpoint in the ledger and to Health. Required.
	ID string
	// URL is the endpoint's absolute URL: https:// unless AllowHTTP.
	URL string
	// Secrets sign the delivery, newest first: during a rotation the
	// delivery carries one signature per secret, so the receiver may
	// verify with either. A Standard Webhooks secret is whsec_ and its key
	// in base64 ([NewSecret]); any other string is its own key.
	Secrets []string
	// Disabled refuses the delivery with X_WEBHOOK_ENDPOINT_DISABLED,
	// terminal, nothing sent.
	Disabled bool
}

// Event is what one delivery carries, read afresh by every attempt.
type Event struct {
	// ID is the event's id: the webhook-id header, the same on every
	// retry, so the receiver can dedupe. 1-256 printable ASCII characters.
	ID string
	// Topic names the kind of event ("orders.paid"). Signed by the
	// timestamp scheme; the app's to put in the body for the standard one.
	Topic string
	// Body is the request body, sent as application/json.
	Body []byte
}

// Options declare an outbound webhook. Each field's comment gives its
// default; a fault is refused by [New] with X_JOB_DECLARATION_INVALID.
type Options[In any] struct {
	// Endpoint answers the endpoint a run delivers to, read by every
	// attempt and never checkpointed: a rotated secret, a changed URL or a
	// disabled endpoint takes effect on the next attempt. Required.
	Endpoint func(ctx context.Context, in In) (Endpoint, error)
	// Event answers the event a run delivers, read by every attempt.
	// Required.
	Event func(ctx context.Context, in In) (Event, error)
	// Signing is SignStandard (default) or SignTimestamp.
	Signing Signing
	// Ledger records one row per attempt, never the body. Nil: none.
	// [PostgresLedger] is the stock one.
	Ledger Ledger
	// Health counts an endpoint's consecutive failed runs and disables it
	// at DisableAfter. Nil: endpoints are never disabled by pipe. The
	// stock endpoint [Store] is one.
	Health Health
	// DisableAfter is how many consecutive failed runs of one endpoint
	// disable it. Default 10 ([DefaultDisableAfter]); negative never
	// disables.
	DisableAfter int
	// AllowHTTP lets a delivery post to a plain http:// URL. Default false:
	// https only.
	AllowHTTP bool
	// AllowPrivate lets a delivery reach loopback, private, link-local,
	// CGNAT, unique-local and metadata addresses. Default false: such an
	// address, as the host resolves at dial time, is refused with
	// X_WEBHOOK_ENDPOINT_INVALID.
	AllowPrivate bool
	// TLS configures the client's TLS (its roots, for an endpoint with a
	// private CA). Default the system's.
	TLS *tls.Config
	// MaxConnsPerHost caps the connections kept open to one endpoint host.
	// Default 64.
	MaxConnsPerHost int
	// Job are the job options (queue, retry, timeout...). Timeout bounds
	// one attempt; the endpoint read and the request inside it end a
	// quarter of it earlier (at most 1s), so that a request past it fails
	// as X_WEBHOOK_DELIVERY_FAILED. With none declared, each request is
	// bounded by DefaultTimeout (30s).
	Job pipeline.JobOptions[In, Result]
}

// Result is what a delivered run answers, stored on its row.
type Result struct {
	EndpointID string `json:"endpointId"`
	EventID    string `json:"eventId"`
	Status     int    `json:"status"`
	Attempt    int    `json:"attempt"`
	DurationMs int64  `json:"durationMs"`
}

// Health counts an endpoint's consecutive failed runs. A run fails when
// its last attempt fails or it meets a terminal refusal; a delivered run
// resets the count.
type Health interface {
	// Failed counts one failed run of the endpoint and disables it when
	// the count reaches disableAfter (never when disableAfter < 1); it
	// answers whether the endpoint is now disabled.
	Failed(ctx context.Context, endpointID string, disableAfter int) (disabled bool, err error)
	// Delivered resets the endpoint's count.
	Delivered(ctx context.Context, endpointID string) error
}
