package webhook

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// New declares an outbound webhook: each run delivers one event to one
// endpoint, both read by every attempt (Options.Endpoint, Options.Event),
// signed, posted once, and recorded in the ledger. The fan-out is the app's
// own EnqueueMany over its subscriptions; retry, backoff and disable-after-N
// are per endpoint. name and key are required, as for every job: key
// answers a run's idempotency key from its input (endpoint and event,
// usually), so an event enqueued twice for one endpoint is one delivery.
func New[In any](name string, key func(In) string, o Options[In]) (*pipeline.Job[In, Result], error) {
	_, job, err := declare(name, key, o)
	return job, err
}

// declare checks o and answers the webhook's deliverer and the job whose
// body it is.
func declare[In any](name string, key func(In) string, o Options[In]) (*deliverer[In], *pipeline.Job[In, Result], error) {
	if faults := o.faults(); len(faults) > 0 {
		return nil, nil, errcode.New(errcode.JobDeclarationInvalid, "webhook %s: %s", label(name), strings.Join(faults, "; ")).
			WithFix("correct each named field of the webhook's Options")
	}
	d := &deliverer[In]{name: name, o: o.withDefaults(), client: newClient(o)}
	if d.o.Job.Tenant != nil {
		// a delivery names its tenant, or is refused: an event sent as
		// no tenant's could reach another tenant's endpoint
		d.o.Job.TenantRequired = true
	}
	job, err := pipeline.NewJob(name, key, d.run, d.o.Job)
	return d, job, err
}

// MustNew is [New] that panics on a bad declaration, for package-level
// variables.
func MustNew[In any](name string, key func(In) string, o Options[In]) *pipeline.Job[In, Result] {
	j, err := New(name, key, o)
	if err != nil {
		panic(err)
	}
	return j
}

func (o Options[In]) faults() []string {
	var f []string
	if o.Endpoint == nil {
		f = append(f, "Endpoint is nil")
	}
	if o.Event == nil {
		f = append(f, "Event is nil")
	}
	switch o.Signing {
	case "", SignStandard, SignTimestamp:
	default:
		f = append(f, "Signing is neither standard nor timestamp")
	}
	if o.MaxConnsPerHost < 0 {
		f = append(f, "MaxConnsPerHost is negative")
	}
	return f
}

func (o Options[In]) withDefaults() Options[In] {
	if o.Signing == "" {
		o.Signing = SignStandard
	}
	if o.DisableAfter == 0 {
		o.DisableAfter = DefaultDisableAfter
	}
	return o
}

func label(name string) string {
	if strings.TrimSpace(name) == "" {
		return "(unnamed)"
	}
	return name
}

// deliverer is one declared webhook; run is its body.
type deliverer[In any] struct {
	name   string
	o      Options[In]
	client *client
}

// run delivers once: reads the endpoint and the event, posts, records the
// attempt, and counts a run that ends failed against the endpoint.
func (d *deliverer[In]) run(ctx context.Context, r *pipeline.Run[In]) (Result, error) {
	ctx, cancelAttempt := d.attemptDeadline(ctx)
	defer cancelAttempt()
	res, endpointID, err := d.once(ctx, r.Input, try{runID: r.RunID, n: r.Attempt, record: d.record, refusals: true})
	after, cancel := context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
	defer cancel()
	if err != nil {
		if endpointID == "" {
			return Result{}, err // no endpoint read: nothing to count against
		}
		return Result{}, d.failed(after, r, endpointID, err)
	}
	if d.o.Health != nil {
		if herr := d.o.Health.Delivered(ctx, endpointID); herr != nil {
			return Result{}, herr
		}
	}
	return res, nil
}

// try is one attempt's terms: attempt n of runID, recorded through
// record; an endpoint for which skip answers true is not posted to
// (errSkipped); the request is bounded by bound, or with none by the job's
// Timeout (the attempt's context) or DefaultTimeout.
type try struct {
	runID  string
	n      int
	skip   func(endpointID string) bool
	record func(context.Context, Attempt) error
	bound  time.Duration
	// refusals records an attempt refused before any request (a disabled
	// endpoint) as a refused row: a run's attempts do, a staged attempt
	// (which hands the delivery to its run unsent) does not.
	refusals bool
}

// once reads the endpoint and the event of in, posts, and records the
// attempt, on t's terms. It answers the endpoint's id once an attempt was
// made on it (what a failure counts against), and the attempt's coded
// error.
func (d *deliverer[In]) once(ctx context.Context, in In, t try) (Result, string, error) {
	ep, err := d.o.Endpoint(ctx, in)
	if err != nil {
		return Result{}, "", err
	}
	if t.skip != nil && t.skip(ep.ID) {
		return Result{}, "", errSkipped
	}
	if ep.Disabled {
		err := errcode.New(errcode.WebhookEndpointDisabled, "webhook %s: the endpoint is disabled", d.name).
			WithFix("re-enable the endpoint once its owner has fixed it (pipe webhooks endpoints enable ID), then requeue the run")
		if t.refusals {
			d.recordRefusal(ctx, in, ep, t, err)
		}
		return Result{}, "", err
	}
	ev, err := d.o.Event(ctx, in)
	if err != nil {
		return Result{}, "", err // the event's fault, not the endpoint's
	}
	if !validEventID(ev.ID) {
		return Result{}, "", errcode.New(errcode.WebhookEventInvalid, "webhook %s: the event id is not 1-256 printable ASCII characters", d.name).
			WithFix("give every event an id of 1-256 printable ASCII characters")
	}
	att := Attempt{Job: d.name, RunID: t.runID, EndpointID: ep.ID, EventID: ev.ID, Attempt: t.n, Bytes: int64(len(ev.Body)), At: time.Now()}
	status, err := d.send(ctx, ep, ev, t.bound)
	att.DurationMs = time.Since(att.At).Milliseconds()
	att.Status, att.Outcome, att.Code = status, outcomeOf(err), errcode.CodeOf(err)
	if lerr := t.record(ctx, att); lerr != nil && err == nil {
		err = lerr // recorded or retried: a retry redelivers under the same webhook-id
	}
	if err != nil {
		return Result{}, ep.ID, err
	}
	return Result{EndpointID: ep.ID, EventID: ev.ID, Status: status, Attempt: t.n, DurationMs: att.DurationMs}, ep.ID, nil
}

// record writes one attempt to the ledger, when there is one. The
// attempt's context may have ended (its timeout cut the request): the row
// is written past it, bounded.
func (d *deliverer[In]) record(ctx context.Context, a Attempt) error {
	if d.o.Ledger == nil {
		return nil
	}
	after, cancel := context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
	defer cancel()
	return d.o.Ledger.Record(after, a)
}

// errSkipped is a staged delivery not posted: its endpoint is held.
var errSkipped = errors.New("the endpoint is held")

// send posts the delivery within bound; with none, within the job's
// Timeout (the attempt's context), or DefaultTimeout when the job declares
// none.
func (d *deliverer[In]) send(ctx context.Context, ep Endpoint, ev Event, bound time.Duration) (int, error) {
	if bound == 0 && d.o.Job.Timeout == 0 {
		bound = DefaultTimeout
	}
	if bound > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, bound)
		defer cancel()
	}
	return d.client.post(ctx, d.o, ep, ev)
}

// bookkeepingTimeout bounds the ledger row and the failure count written
// after an attempt.
const bookkeepingTimeout = 10 * time.Second

// failed counts the run against the endpoint when this attempt ends it,
// and answers the attempt's error.
func (d *deliverer[In]) failed(ctx context.Context, r *pipeline.Run[In], endpointID string, err error) error {
	ends := r.FinalAttempt || errcode.Classify(err) == errcode.Terminal
	if !ends || d.o.Health == nil {
		return err
	}
	if _, herr := d.o.Health.Failed(ctx, endpointID, d.o.DisableAfter); herr != nil {
		return errors.Join(err, herr)
	}
	return err
}

func outcomeOf(err error) Outcome {
	switch errcode.CodeOf(err) {
	case "":
		if err == nil {
			return Delivered
		}
		return Failed
	case errcode.WebhookDeliveryThrottled:
		return Throttled
	case errcode.WebhookDeliveryRejected:
		return Rejected
	case errcode.WebhookEndpointInvalid, errcode.WebhookEndpointDisabled:
		return Refused
	}
	return Failed
}

// validEventID answers whether id is 1-256 printable ASCII characters.
func validEventID(id string) bool {
	if len(id) == 0 || len(id) > 256 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x20 || id[i] > 0x7e {
			return false
		}
	}
	return true
}
