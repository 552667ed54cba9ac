package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
)

// Body is a job's work. It reads its input from run and answers a result that
// is stored, as JSON, on the finished row.
type Body[In, Out any] func(ctx context.Context, run *Run[In]) (Out, error)

// JobOptions are a job's optional settings, typed by the job's input and
// result. Each field's comment gives its default; a bad value is refused by
// [NewJob] with X_JOB_DECLARATION_INVALID.
type JobOptions[In, Out any] struct {
	// Queue is the named pool the job runs in. Default "default".
	Queue string
	// Tenant answers the tenant a run acts for. Nil means the job has no
	// tenant; idempotency keys are scoped by name and tenant.
	Tenant func(In) string
	// TenantRequired refuses an input for which Tenant answers "" with
	// X_JOB_TENANT_MISMATCH (terminal): at enqueue, before anything is
	// queued, and at run, for a row queued before the job required one
	// (dead-lettered on its first attempt). Needs Tenant. Default false: an
	// input naming no tenant runs as no tenant's. A webhook with a Tenant
	// sets it.
	TenantRequired bool
	// Retry is the retry policy. Nil means [DefaultRetry]'s.
	Retry *Retry
	// Timeout caps one attempt: at the deadline the body's context is
	// cancelled with X_JOB_TIMEOUT, then the attempt fails. Zero means no
	// timeout; a negative value is refused.
	Timeout time.Duration
	// StepTimeout caps one step. Zero means no step ceiling; a negative value
	// is refused.
	StepTimeout time.Duration
	// EventPoll is how often a run waiting in WaitForEvent looks for its
	// event when no publish wakes it. Default 15m; negative is refused.
	EventPoll time.Duration
	// Concurrency caps simultaneous runs fleet-wide, or per key. Nil: no cap.
	Concurrency *Concurrency[In]
	// Compensates lets steps register a compensator (see
	// [StepWithCompensation]):
	// when the run fails for good, the compensators run last-in first-out.
	// The row carries UnwindMargin attempts beyond Retry.Attempts so a crash
	// during the unwind is resumed.
	Compensates bool
	// Verify, when set, checks the declaration against the live database —
	// a table, a column or an index the job needs. [Worker.Start] calls it
	// for every registered job and refuses to start when one fails;
	// [Registry.Verify] asks every job without starting anything (the CLI's
	// `pipe verify`). Default none: nothing to check.
	Verify func(ctx context.Context, db DB) error
	// Sensitive stores the input as any other but shows it as [redacted]
	// wherever pipe shows a run (`pipe jobs show`, [Admin.Show]); logs and
	// spans never carry inputs. For inputs that are personal data or a
	// sender's payload (every webhook receiver's). Default false.
	Sensitive bool
	// OnSettled, when set, is told once a run's ending landed: completed
	// (with the body's result), dead-lettered, dropped or refused — never a
	// retry, a suspension, a drain, or a run cancelled or removed by a
	// caller. At most once per ending (a worker killed between the settle
	// and the hook never runs it); three tries inside OnSettledTimeout,
	// then X_JOB_ON_SETTLED_FAILED is logged and the row is untouched. What
	// must be recorded for certain belongs in a step. Default none.
	OnSettled func(ctx context.Context, s Settled[In, Out]) error
	// OnSettledTimeout bounds the OnSettled hook's three tries together:
	// past it the hook's context ends with X_JOB_TIMEOUT and the worker's
	// slot is free again. Default [OnSettledTimeout] (30 s); a negative
	// value is refused.
	OnSettledTimeout time.Duration
}

// UnwindMargin is how many attempts a compensating job's row carries beyond
// its declared attempts, for the unwind.
const UnwindMargin = 2

// Concurrency caps simultaneous runs of a job across the fleet, enforced by
// lease rows (one per held slot) that the worker's heartbeat renews and that
// free themselves when a worker dies.
type Concurrency[In any] struct {
	// Limit is the cap, 1 or more.
	Limit int
	// Key, when set, caps the runs sharing Key(input) instead of all runs.
	// It must answer a non-empty string of at most 200 characters, else the
	// enqueue is refused with X_JOB_DECLARATION_INVALID.
	Key func(In) string
	// WhenBusy is what a claim over the cap does: Wait (default) defers the
	// run without spending an attempt; Fail settles it "failed" with
	// X_JOB_KEY_BUSY, its body never run. Fail needs a Key: a fleet-wide
	// cap always waits, and declaring Fail without a Key is refused.
	WhenBusy WhenBusy
}

// WhenBusy is what a claim over a concurrency cap does.
type WhenBusy string

const (
	// Wait defers the run, attempt uncounted: deferred, never dropped.
	Wait WhenBusy = "wait"
	// Fail settles the run failed with X_JOB_KEY_BUSY.
	Fail WhenBusy = "fail"
)

// Job is a declared job: what to run, how it dedupes and how it retries. It
// is safe for concurrent use. Declare it once, at start-up, with [NewJob].
type Job[In, Out any] struct {
	spec  jobSpec
	key   func(In) string
	body  Body[In, Out]
	opts  JobOptions[In, Out]
	fresh *freshGate // see enqueue_fresh.go
}

// jobSpec is the resolved, type-free part of a declaration the worker reads.
type jobSpec struct {
	name        string
	queue       string
	retry       Retry
	timeout     time.Duration
	stepTimeout time.Duration
	eventPoll   time.Duration
	tenanted    bool
	limit       int      // the concurrency cap; 0 means none
	keyed       bool     // the cap is per concurrency key
	whenBusy    WhenBusy // set when limit > 0
	compensates bool
	sensitive   bool   // the input shows as [redacted]
	spanName    string // "pipe.job NAME", made once rather than at every run
}

// NewJob declares a job. name, the idempotency key function and the body are
// required arguments; leaving one out does not compile, and passing nil or an
// empty name is refused. Every fault in the declaration is named in one
// X_JOB_DECLARATION_INVALID error.
func NewJob[In, Out any](name string, key func(In) string, body Body[In, Out], opts ...JobOptions[In, Out]) (*Job[In, Out], error) {
	var o JobOptions[In, Out]
	if len(opts) > 1 {
		return nil, declarationError(name, []string{"pass at most one JobOptions"})
	}
	if len(opts) == 1 {
		o = opts[0]
	}
	spec, faults := resolveSpec(name, o.Queue, o.Retry, o.Timeout, o.StepTimeout)
	if key == nil {
		faults = append(faults, "the idempotency key function is nil")
	}
	if body == nil {
		faults = append(faults, "the body is nil")
	}
	if o.EventPoll < 0 {
		faults = append(faults, "EventPoll is negative")
	}
	if o.OnSettledTimeout < 0 {
		faults = append(faults, "OnSettledTimeout is negative")
	}
	faults = append(faults, concurrencyFaults(o.Concurrency)...)
	if o.TenantRequired && o.Tenant == nil {
		faults = append(faults, "TenantRequired without a Tenant")
	}
	if len(faults) > 0 {
		return nil, declarationError(name, faults)
	}
	spec.tenanted, spec.eventPoll, spec.compensates = o.Tenant != nil, o.EventPoll, o.Compensates
	spec.sensitive = o.Sensitive
	if c := o.Concurrency; c != nil {
		spec.limit, spec.keyed, spec.whenBusy = c.Limit, c.Key != nil, c.WhenBusy
		if spec.whenBusy == "" {
			spec.whenBusy = Wait
		}
	}
	return &Job[In, Out]{spec: spec, key: key, body: body, opts: o, fresh: &freshGate{}}, nil
}

// MustJob is [NewJob] that panics on a bad declaration, for package-level
// variables.
func MustJob[In, Out any](name string, key func(In) string, body Body[In, Out], opts ...JobOptions[In, Out]) *Job[In, Out] {
	j, err := NewJob(name, key, body, opts...)
	if err != nil {
		panic(err)
	}
	return j
}

func resolveSpec(name, queue string, retry *Retry, timeout, stepTimeout time.Duration) (jobSpec, []string) {
	var faults []string
	if strings.TrimSpace(name) == "" {
		faults = append(faults, "the name is empty")
	} else if len(name) > 200 {
		faults = append(faults, "the name is longer than 200 characters")
	}
	if queue == "" {
		queue = DefaultQueue
	} else if strings.TrimSpace(queue) == "" || len(queue) > 100 {
		faults = append(faults, "the queue name is blank or longer than 100 characters")
	}
	r := DefaultRetry()
	if retry != nil {
		r = retry.withDefaults()
		faults = append(faults, retry.faults()...)
	}
	if timeout < 0 {
		faults = append(faults, "Timeout is negative")
	}
	if stepTimeout < 0 {
		faults = append(faults, "StepTimeout is negative")
	}
	return jobSpec{name: name, queue: queue, retry: r, timeout: timeout, stepTimeout: stepTimeout,
		spanName: "pipe.job " + name}, faults
}

func declarationError(name string, faults []string) error {
	label := name
	if strings.TrimSpace(label) == "" {
		label = "(unnamed)"
	}
	return errcode.New(errcode.JobDeclarationInvalid, "job %s: %s", label, strings.Join(faults, "; ")).
		WithFix("correct each named field of the job's declaration")
}

// DefaultQueue is the queue a job runs in when it names none.
const DefaultQueue = "default"

// Name answers the job's durable name.
func (j *Job[In, Out]) Name() string { return j.spec.name }

// Queue answers the resolved queue.
func (j *Job[In, Out]) Queue() string { return j.spec.queue }

// Retry answers the resolved retry policy.
func (j *Job[In, Out]) Retry() Retry { return j.spec.retry }

// KeyFor answers the idempotency key of in. An empty key is X_INVARIANT: it
// would make every enqueue a duplicate of every other.
func (j *Job[In, Out]) KeyFor(in In) (string, error) {
	k := j.key(in)
	if k == "" {
		return "", errcode.New(errcode.Invariant, "job %s: the idempotency key is empty", j.spec.name).
			WithFix("derive a non-empty key from the input")
	}
	return k, nil
}

// CheckTenant answers the refusal an enqueue of in under ctx would meet
// for its tenant (X_JOB_TENANT_MISMATCH: none named where the job requires
// one, or another than the ambient tenant's), or nil. For code that
// queues the job's input by another way first, as a staged webhook stages
// it in the outbox.
func (j *Job[In, Out]) CheckTenant(ctx context.Context, in In) error {
	_, err := j.tenantChecked(ctx, in, "")
	return err
}

// TenantFor answers the declared tenant of in, or "" for a job with none.
func (j *Job[In, Out]) TenantFor(in In) string {
	if j.opts.Tenant == nil {
		return ""
	}
	return j.opts.Tenant(in)
}

func (j *Job[In, Out]) declaration() *jobSpec { return &j.spec }

// Parse checks a raw payload against the job's declared input, as the
// worker will decode it, but strictly: a payload that is not one JSON value
// of the input's type, or names a field the type does not have, is
// X_JOB_INPUT_INVALID (naming neither the field nor the value). For an
// input arriving from outside (a queue, a form) before it is enqueued.
func (j *Job[In, Out]) Parse(raw []byte) (In, error) {
	var in In
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(&in)
	if err == nil && dec.More() {
		err = errors.New("data after the payload")
	}
	if err != nil {
		var zero In
		return zero, errcode.Wrap(err, errcode.JobInputInvalid, "job %s: the payload is not an input of the declared type", j.spec.name).
			WithFix("send one JSON object of the job's input type, with only its fields")
	}
	return in, nil
}

func (j *Job[In, Out]) decode(raw []byte) (In, error) {
	var in In
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, errcode.Wrap(err, errcode.JobInputInvalid, "job %s: the stored input does not decode", j.spec.name).
			WithFix("requeue the run with an input of the declared type, or remove it")
	}
	return in, nil
}

func concurrencyFaults[In any](c *Concurrency[In]) []string {
	if c == nil {
		return nil
	}
	var out []string
	if c.Limit < 1 {
		out = append(out, "Concurrency.Limit must be 1 or more")
	}
	switch c.WhenBusy {
	case "", Wait:
	case Fail:
		if c.Key == nil {
			out = append(out, "Concurrency.WhenBusy fail needs a Key: a fleet-wide cap always waits")
		}
	default:
		out = append(out, "Concurrency.WhenBusy must be wait or fail")
	}
	return out
}

// ConcurrencyKeyFor answers the concurrency key of in: "" for a job with no
// keyed cap. A key that is empty, longer than 200 characters (runes, not
// bytes: "Zürich" is 6) or not UTF-8 text PostgreSQL keeps (invalid UTF-8,
// a NUL) is X_JOB_DECLARATION_INVALID; the enqueue asks it first, so the
// refusal reaches the caller.
func (j *Job[In, Out]) ConcurrencyKeyFor(in In) (string, error) {
	c := j.opts.Concurrency
	if c == nil || c.Key == nil {
		return "", nil
	}
	k := c.Key(in)
	if k == "" || utf8.RuneCountInString(k) > 200 || !utf8.ValidString(k) || strings.ContainsRune(k, 0) {
		return "", errcode.New(errcode.JobDeclarationInvalid, "job %s: the concurrency key is empty, longer than 200 characters or not UTF-8 text", j.spec.name).
			WithFix("answer a non-empty UTF-8 key of at most 200 characters, without NUL, from Concurrency.Key")
	}
	return k, nil
}

// leaseKey is the lease rows' key a run counts under.
func (s *jobSpec) leaseKey(concurrencyKey string) string {
	if !s.keyed {
		return s.name
	}
	return s.name + ":" + concurrencyKey
}

// maxAttempts is what the row carries: the declared attempts, plus the
// unwind margin for a compensating job.
func (s *jobSpec) maxAttempts() int {
	if s.compensates {
		return s.retry.Attempts + UnwindMargin
	}
	return s.retry.Attempts
}
