package webhook

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// DefaultMaxBytes is a receiver's body cap when MaxBytes is zero: 1 MiB.
const DefaultMaxBytes = 1 << 20

// Inbound is one request as Verify sees it: the exact bytes, nothing
// parsed.
type Inbound struct {
	// Bytes are the body exactly as sent.
	Bytes []byte
	// Header are the request's headers.
	Header http.Header
	// Params are the path's wildcards ("/hooks/billing/{account}" names
	// account), as the request matched them.
	Params map[string]string
	// URL is the request's URL (path and query).
	URL *url.URL
}

// Verdict is what Verify answers for a request it accepts.
type Verdict[P any] struct {
	// EventID is the event's id, read from VERIFIED data — the signed body,
	// or a header the signature covers — since it is the dedupe key: an
	// unsigned id lets a captured request replay forever under fresh ids.
	// 1-256 printable ASCII characters, else 422
	// X_WEBHOOK_EVENT_ID_INVALID (never echoed).
	EventID string
	// Payload is what the job's Handle receives, stored as JSON (shown
	// [redacted]).
	Payload P
	// Answer, when set, is served as the response and nothing is queued: a
	// subscription's confirmation or a challenge.
	Answer http.Handler
}

// Received is a receiver's job input: the verified event.
type Received[P any] struct {
	EventID    string            `json:"eventId"`
	Payload    P                 `json:"payload"`
	Params     map[string]string `json:"params,omitempty"`
	ReceivedAt time.Time         `json:"receivedAt"`
}

// ReceiverOptions declare a receiver. Each field's comment gives its
// default; a fault is refused by [NewReceiver] with
// X_WEBHOOK_RECEIVER_INVALID naming every fault.
type ReceiverOptions[P any] struct {
	// Path is the route, absolute, in net/http's pattern syntax without a
	// method: "/hooks/billing/{account}". Required.
	Path string
	// Verify checks a request and reads the event out of it: the bytes,
	// headers and path params, nothing parsed before it. A refusal is
	// X_WEBHOOK_SIGNATURE_INVALID or _STALE (401, nothing queued; an
	// uncoded error counts as INVALID). Parse the body inside it and
	// answer your own code on a parse failure, naming no content. Required.
	Verify func(ctx context.Context, in *Inbound) (Verdict[P], error)
	// Handle is the job's body: the work, at least once per event id.
	// It never re-verifies, so a retry past a sender's tolerance window is
	// not refused. Required.
	Handle func(ctx context.Context, run *pipeline.Run[Received[P]]) error
	// Handshake, when set, answers GET on Path (an endpoint check some
	// senders make). Nil: GET is 405.
	Handshake func(ctx context.Context, in *Inbound) http.Handler
	// MaxBytes caps the body, enforced while it streams: over is 413
	// X_BODY_INVALID. Default 1 MiB.
	MaxBytes int64
	// RateLimit, when set, caps the requests the door takes in this
	// process: over it is 429 X_RATE_LIMITED with Retry-After, before the
	// body is read. Default none.
	RateLimit *RateLimit
	// Job are the job options (queue, retry, timeout...). Sensitive is
	// always set: the stored payload shows as [redacted].
	Job pipeline.JobOptions[Received[P], struct{}]
}

// Receiver is a declared inbound webhook: its job, and the handler that
// feeds it.
type Receiver[P any] struct {
	name string
	o    ReceiverOptions[P]
	job  *pipeline.Job[Received[P], struct{}]
}

// NewReceiver declares a receiver named name (its job's durable name).
// Register [Receiver.Job] with the worker that runs Handle, and serve
// [Receiver.Handler] at [Receiver.Path] (`pipe serve` does both for
// receivers listed in pipecli.Options).
func NewReceiver[P any](name string, o ReceiverOptions[P]) (*Receiver[P], error) {
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if f := o.faults(); len(f) > 0 {
		return nil, errcode.New(errcode.WebhookReceiverInvalid, "webhook receiver %s: %s", label(name), strings.Join(f, "; ")).
			WithFix("correct each named field of the receiver's options")
	}
	jo := o.Job
	jo.Sensitive = true
	handle := o.Handle
	body := func(ctx context.Context, r *pipeline.Run[Received[P]]) (struct{}, error) {
		return struct{}{}, handle(ctx, r)
	}
	job, err := pipeline.NewJob(name, func(in Received[P]) string { return in.EventID }, body, jo)
	if err != nil {
		return nil, err
	}
	return &Receiver[P]{name: name, o: o, job: job}, nil
}

// MustReceiver is [NewReceiver] that panics on a bad declaration.
func MustReceiver[P any](name string, o ReceiverOptions[P]) *Receiver[P] {
	r, err := NewReceiver(name, o)
	if err != nil {
		panic(err)
	}
	return r
}

func (o ReceiverOptions[P]) faults() []string {
	var f []string
	if !strings.HasPrefix(o.Path, "/") {
		f = append(f, "Path is not absolute")
	} else if strings.ContainsAny(o.Path, " \t") {
		f = append(f, "Path holds a space or a method: give the path alone")
	}
	if o.Verify == nil {
		f = append(f, "Verify is nil")
	}
	if o.Handle == nil {
		f = append(f, "Handle is nil")
	}
	if o.MaxBytes < 0 {
		f = append(f, "MaxBytes is negative")
	}
	return append(f, o.RateLimit.faults()...)
}

// Name answers the receiver's name, its job's.
func (r *Receiver[P]) Name() string { return r.name }

// Path answers the route the handler serves.
func (r *Receiver[P]) Path() string { return r.o.Path }

// Job answers the receiver's job, for the worker's registry.
func (r *Receiver[P]) Job() pipeline.Registrable { return r.job }

// Declared answers the typed job, to enqueue or inspect it directly.
func (r *Receiver[P]) Declared() *pipeline.Job[Received[P], struct{}] { return r.job }
