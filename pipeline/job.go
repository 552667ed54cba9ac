package pipeline

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// Body is a job's work. It reads its input from run and answers a result that
// is stored, as JSON, on the finished row.
type Body[In, Out any] func(ctx context.Context, run *Run[In]) (Out, error)

// JobOptions are a job's optional settings. Each field's comment gives its
// default; a bad value is refused by [NewJob] with X_JOB_DECLARATION_INVALID.
type JobOptions[In any] struct {
	// Queue is the named pool the job runs in. Default "default".
	Queue string
	// Tenant answers the tenant a run acts for. Nil means the job has no
	// tenant; idempotency keys are scoped by name and tenant.
	Tenant func(In) string
	// Retry is the retry policy. Nil means [DefaultRetry].
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
}

// Job is a declared job: what to run, how it dedupes and how it retries. It
// is safe for concurrent use. Declare it once, at start-up, with [NewJob].
type Job[In, Out any] struct {
	spec  jobSpec
	key   func(In) string
	body  Body[In, Out]
	opts  JobOptions[In]
	wakes *wakeThrottle
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
}

// NewJob declares a job. name, the idempotency key function and the body are
// required arguments; leaving one out does not compile, and passing nil or an
// empty name is refused. Every fault in the declaration is named in one
// X_JOB_DECLARATION_INVALID error.
func NewJob[In, Out any](name string, key func(In) string, body Body[In, Out], opts ...JobOptions[In]) (*Job[In, Out], error) {
	var o JobOptions[In]
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
	if len(faults) > 0 {
		return nil, declarationError(name, faults)
	}
	if o.EventPoll < 0 {
		return nil, declarationError(name, []string{"EventPoll is negative"})
	}
	spec.tenanted, spec.eventPoll = o.Tenant != nil, o.EventPoll
	return &Job[In, Out]{spec: spec, key: key, body: body, opts: o, wakes: newWakeThrottle()}, nil
}

// MustJob is [NewJob] that panics on a bad declaration, for package-level
// variables.
func MustJob[In, Out any](name string, key func(In) string, body Body[In, Out], opts ...JobOptions[In]) *Job[In, Out] {
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
	r := DefaultRetry
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
	return jobSpec{name: name, queue: queue, retry: r, timeout: timeout, stepTimeout: stepTimeout}, faults
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

// TenantFor answers the declared tenant of in, or "" for a job with none.
func (j *Job[In, Out]) TenantFor(in In) string {
	if j.opts.Tenant == nil {
		return ""
	}
	return j.opts.Tenant(in)
}

func (j *Job[In, Out]) declaration() *jobSpec { return &j.spec }

func (j *Job[In, Out]) decode(raw []byte) (In, error) {
	var in In
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, errcode.Wrap(err, errcode.JobInputInvalid, "job %s: the stored input does not decode", j.spec.name).
			WithFix("requeue the run with an input of the declared type, or remove it")
	}
	return in, nil
}
