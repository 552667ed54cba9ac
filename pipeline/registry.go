package pipeline

import (
	"context"
	"encoding/json"
	"sort"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// Registrable is a declared job of any input and output type. Only jobs made
// by [NewJob] (and the factories built on it) implement it.
type Registrable interface {
	Name() string
	Describe() Manifest
	declaration() *jobSpec
	execute(ctx context.Context, row *claimed) ([]byte, error)
	settled(outcome Outcome, row *claimed, result, record json.RawMessage) error
	verify(ctx context.Context, db DB) error
}

// Registry is the set of jobs a worker runs, by name.
type Registry struct {
	jobs map[string]Registrable
}

// NewRegistry answers a registry holding jobs. Two jobs with one name are
// X_JOB_DECLARATION_INVALID.
func NewRegistry(jobs ...Registrable) (*Registry, error) {
	r := &Registry{jobs: map[string]Registrable{}}
	for _, j := range jobs {
		if err := r.Register(j); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds a job.
func (r *Registry) Register(j Registrable) error {
	if j == nil {
		return errcode.New(errcode.JobDeclarationInvalid, "registry: a nil job").WithFix("declare the job with pipeline.NewJob")
	}
	if _, dup := r.jobs[j.Name()]; dup {
		return errcode.New(errcode.JobDeclarationInvalid, "registry: two jobs are named %s", j.Name()).
			WithFix("give each job its own durable name")
	}
	r.jobs[j.Name()] = j
	return nil
}

// Lookup answers the job named name.
func (r *Registry) Lookup(name string) (Registrable, bool) {
	j, ok := r.jobs[name]
	return j, ok
}

// Names answers the registered names, sorted.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.jobs))
	for n := range r.jobs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Manifests answers every registered job's manifest row, sorted by name:
// the one list `pipe jobs manifest` and the MCP tools read.
func (r *Registry) Manifests() []Manifest {
	out := make([]Manifest, 0, len(r.jobs))
	for _, n := range r.Names() {
		out = append(out, r.jobs[n].Describe())
	}
	return out
}

// Queues answers the queues the registered jobs run in, sorted.
func (r *Registry) Queues() []string {
	seen := map[string]bool{}
	for _, j := range r.jobs {
		seen[j.declaration().queue] = true
	}
	out := make([]string, 0, len(seen))
	for q := range seen {
		out = append(out, q)
	}
	sort.Strings(out)
	return out
}

// Manifest is the manifest row of a job: never a key, since keys are
// computed from inputs, which are app data.
//
// Steps is empty by design: a body names its steps as it runs, so the steps
// a run recorded come from the run (`pipe jobs show`), not the declaration.
// Idempotent is true for every job, since each declares an idempotency key.
// EventPollMs is how often a run waiting in WaitForEvent looks, resolved
// (the default when the declaration left it out).
type Manifest struct {
	Name        string               `json:"name"`
	Queue       string               `json:"queue"`
	Input       json.RawMessage      `json:"input"`
	Retry       RetryManifest        `json:"retry"`
	Steps       []string             `json:"steps"`
	Idempotent  bool                 `json:"idempotent"`
	TimeoutMs   int64                `json:"timeoutMs,omitempty"`
	StepTimeout int64                `json:"stepTimeoutMs,omitempty"`
	EventPollMs int64                `json:"eventPollMs"`
	Tenanted    bool                 `json:"tenanted"`
	Concurrency *ConcurrencyManifest `json:"concurrency"`
	Sensitive   bool                 `json:"sensitive,omitempty"`
}

// RetryManifest is the retry policy as the manifest shows it.
type RetryManifest struct {
	Attempts   int     `json:"attempts"`
	Backoff    Backoff `json:"backoff"`
	DelayMs    int64   `json:"delayMs"`
	MaxDelayMs int64   `json:"maxDelayMs"`
	Jitter     bool    `json:"jitter"`
	DeadLetter bool    `json:"deadLetter"`
}

// ConcurrencyManifest is a job's fleet-wide cap as the manifest shows it.
type ConcurrencyManifest struct {
	Limit    int    `json:"limit"`
	Keyed    bool   `json:"keyed"`
	WhenBusy string `json:"whenBusy,omitempty"`
}

// Describe answers the job's manifest row.
func (j *Job[In, Out]) Describe() Manifest {
	r := j.spec.retry
	return Manifest{
		Name: j.spec.name, Queue: j.spec.queue, Input: schemaOf[In](),
		Retry: RetryManifest{
			Attempts: r.Attempts, Backoff: r.Backoff,
			DelayMs: r.Delay.Milliseconds(), MaxDelayMs: r.MaxDelay.Milliseconds(),
			Jitter: !r.NoJitter, DeadLetter: !r.NoDeadLetter,
		},
		Steps: []string{}, Idempotent: true,
		TimeoutMs: j.spec.timeout.Milliseconds(), StepTimeout: j.spec.stepTimeout.Milliseconds(),
		EventPollMs: j.spec.resolvedEventPoll().Milliseconds(),
		Tenanted:    j.spec.tenanted, Concurrency: j.spec.concurrencyManifest(),
		Sensitive: j.spec.sensitive,
	}
}

// resolvedEventPoll is the declared event poll, or the default.
func (s *jobSpec) resolvedEventPoll() time.Duration {
	if s.eventPoll <= 0 {
		return DefaultEventPoll
	}
	return s.eventPoll
}

func (s *jobSpec) concurrencyManifest() *ConcurrencyManifest {
	if s.limit == 0 {
		return nil
	}
	m := &ConcurrencyManifest{Limit: s.limit, Keyed: s.keyed}
	if s.keyed {
		m.WhenBusy = string(s.whenBusy)
	}
	return m
}
