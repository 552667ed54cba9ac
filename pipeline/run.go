package pipeline

import (
	"bytes"
	"context"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Run is what a body knows about the run it is executing.
type Run[In any] struct {
	// ID is the job row's id; RunID names the run (the job's id unless the
	// enqueue named one).
	ID, RunID string
	// Name, Queue and Tenant are the job's name, queue and the run's tenant
	// ("" for a job with none).
	Name, Queue, Tenant string
	// Input is the decoded input.
	Input In
	// Attempt counts this attempt from 1; an attempt handed back uncounted (a
	// drain) is presented again under the same number.
	Attempt int
	// MaxAttempts is the declared Retry.Attempts.
	MaxAttempts int
	// FinalAttempt is true when a failure of this attempt will not be retried
	// for want of attempts. A terminal code stops earlier attempts too.
	FinalAttempt bool
}

// claimed is one row a claim handed this worker.
type claimed struct {
	id, runID           uuid.UUID
	name, queue, tenant string
	input               []byte
	attempt, maxAttempt int
	claims              int32
	hasSteps            bool
	now                 *time.Time // the database clock at the claim
	began               time.Time  // this process's clock when the attempt began, for the settled log line
	concurrencyKey      *string
	traceParent         *string
	tenantHeld          bool // counted in the worker's runs of its tenant (MaxInFlightPerTenant)
}

type runKey struct{}

// runState is the per-attempt state steps read from the body's context. A
// body may run steps from several goroutines; mu guards the maps.
type runState struct {
	mu      sync.Mutex
	w       *Worker
	row     *claimed
	spec    *jobSpec
	journal *replay
	names   map[string]bool

	// progress: the report held back by the once-a-second limit.
	pending    *ProgressRecord
	progressAt time.Time

	// compensation: the compensators registered in step order, whether this
	// attempt only replays to re-register them, and a once-step with a
	// compensator whose outcome is unknown.
	comps       []compensator
	replayOnly  bool
	unknownComp string

	holds []*Held // connections the body holds (Hold), released when it ends
}

func withRun(ctx context.Context, rs *runState) context.Context {
	return context.WithValue(ctx, runKey{}, rs)
}

func runFrom(ctx context.Context) *runState {
	rs, _ := ctx.Value(runKey{}).(*runState)
	return rs
}

func newRun[In any](row *claimed, spec *jobSpec, in In) *Run[In] {
	return &Run[In]{
		ID: row.id.String(), RunID: row.runID.String(),
		Name: row.name, Queue: row.queue, Tenant: row.tenant,
		Input: in, Attempt: row.attempt, MaxAttempts: spec.retry.Attempts,
		FinalAttempt: row.attempt >= spec.retry.Attempts,
	}
}

// claimName records a step name used in this attempt; false if already used.
func (rs *runState) claimName(name string) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.names[name] {
		return false
	}
	if rs.names == nil {
		rs.names = map[string]bool{}
	}
	rs.names[name] = true
	return true
}

// stored answers a completed step's output from the journal.
func (rs *runState) stored(name string) ([]byte, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	raw, ok := rs.journal.completed[name]
	return raw, ok
}

func (rs *runState) startedOnly(name string) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.journal.started[name]
}

func (rs *runState) markStarted(name string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.journal.markStarted(name)
}

func (rs *runState) markCompleted(name string, raw []byte) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.journal.complete(name, raw)
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
