package pipeline

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/errcode"
	"go.opentelemetry.io/otel/trace"
)

// Worker claims runs of its registry's jobs and executes them.
type Worker struct {
	cfg   WorkerConfig
	pool  *pgxpool.Pool
	store *store
	log   *workerLog

	queues   []string
	names    []string
	noDead   []string
	wakeCh   chan struct{}
	slotFree chan struct{}
	abandon  chan struct{}

	mu       sync.Mutex
	held     map[uuid.UUID]*heldRun
	owned    map[uuid.UUID]bool // every run claimed and not yet released, held or about to be
	inFlight map[string]int
	tenants  map[string]int // admitted runs per tenant (MaxInFlightPerTenant)
	total    int
	next     int // queue rotation: the pass starts after the last queue served

	bodies   sync.WaitGroup
	fetching sync.WaitGroup // the fetch loop
	loops    sync.WaitGroup // heartbeat and listen
	stopFn   context.CancelFunc
	hbStop   context.CancelFunc
	started  atomic.Bool
	stopped  atomic.Bool
	halt     halting // see worker_stop.go
	idleMax  atomic.Int64
	pooled   bool // the pool leads through a transaction pooler (see pooler.go)
	stats    WorkerStats
	outcomes outcomeCounts
	rates    *tenantRates
	tracer   trace.Tracer
	gos      *goPool // the goroutines runs and bodies run on
	database outage  // whether the claim last found the database gone
	// doubt: claims failed after they may have reached the server, so runs
	// may be running under this worker's id that it never heard of. Read
	// and written by the fetch loop alone.
	doubt claimDoubt

	// fencedTxOptions begin a FencedTx: the server ends one left idle for a
	// whole lease (at least fencedIdleFloor), so a runner cut off from the
	// database mid-batch cannot hold its locks against the runner that
	// replaces it.
	fencedTxOptions pgx.TxOptions

	// holds is the budget of connections bodies hold beyond their steps
	// (Hold): half the pool, so that held connections never starve steps.
	holds chan struct{}
}

// heldRun is one run this worker executes.
type heldRun struct {
	row         *claimed
	cancel      context.CancelCauseFunc
	lastRenewed time.Time
	settling    atomic.Bool // the body ended; a renewal that misses is the settle landing, not a loss
	retrying    atomic.Bool // the settle waits for the database: the heartbeat renews the lease meanwhile
	// lostInOutage: the lease was given up because no renewal could reach
	// the database, not because another claim took the run; the settle
	// hands the run back uncounted if no claim took it meanwhile.
	lostInOutage atomic.Bool
}

// WorkerStats counts what a worker did since it started.
type WorkerStats struct {
	Passes, Claimed, Completed, Retried, DeadLettered, Failed, Interrupted, Suspended, Deferred, Cancelled, Unowned, LeasesLost atomic.Int64
}

// NewWorker answers a worker over pool. It claims nothing until Start.
func NewWorker(pool *pgxpool.Pool, cfg WorkerConfig) (*Worker, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	w := &Worker{
		cfg: cfg, pool: pool, store: newStore(pool), log: &workerLog{l: cfg.Logger, id: cfg.ID},
		wakeCh: make(chan struct{}, 1), slotFree: make(chan struct{}, 1), abandon: make(chan struct{}), halt: newHalting(),
		held: map[uuid.UUID]*heldRun{}, owned: map[uuid.UUID]bool{}, inFlight: map[string]int{}, tenants: map[string]int{}, rates: newTenantRates(cfg.RatePerTenant),
		tracer: cfg.TracerProvider.Tracer(tracerName), gos: newGoPool(),
	}
	for q := range cfg.Queues {
		w.queues = append(w.queues, q)
	}
	sort.Strings(w.queues)
	w.names = cfg.Registry.Names()
	for _, n := range w.names {
		j, _ := cfg.Registry.Lookup(n)
		if j.declaration().retry.NoDeadLetter {
			w.noDead = append(w.noDead, n)
		}
	}
	w.idleMax.Store(int64(cfg.IdlePollMax))
	w.holds = make(chan struct{}, pool.Config().MaxConns/2)
	w.fencedTxOptions = pgx.TxOptions{BeginQuery: fmt.Sprintf("begin; set local idle_in_transaction_session_timeout = %d", fencedIdleLimit(cfg.Lease).Milliseconds())}
	return w, nil
}

// InFlight answers how many runs the worker holds now.
func (w *Worker) InFlight() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.total
}

// Capacity answers the worker's slots: MaxInFlight, or the sum of its
// queues' slots when there is no process cap.
func (w *Worker) Capacity() int {
	if w.cfg.MaxInFlight > 0 {
		return w.cfg.MaxInFlight
	}
	n := 0
	for _, s := range w.cfg.Queues {
		n += s
	}
	return n
}

// Queues answers the queues the worker serves, sorted.
func (w *Worker) Queues() []string { return append([]string(nil), w.queues...) }

// ID answers the worker's id.
func (w *Worker) ID() string { return w.cfg.ID }

// Stats answers the worker's counters.
func (w *Worker) Stats() *WorkerStats { return &w.stats }

// Start first checks that its role holds the rights [Grants] gives
// ([CheckGrants]: X_POSTGRES_PERMISSION) and every registered job's
// declaration against the database ([JobOptions].Verify), and refuses to
// start, answering every failure, when one does not hold. Then it begins
// claiming and returns at once; the work happens in goroutines until Stop
// or Shutdown.
func (w *Worker) Start(ctx context.Context) error {
	if !w.started.CompareAndSwap(false, true) {
		return errcode.New(errcode.Invariant, "worker %s: already started", w.cfg.ID).WithFix("start a worker once")
	}
	// The pooler first: behind one, a pool that names its statements
	// would fail the checks after it at random.
	if err := w.checkPooler(ctx); err != nil {
		w.started.Store(false)
		return err
	}
	if err := w.checkGrants(ctx); err != nil {
		w.started.Store(false)
		return err
	}
	if err := w.cfg.Registry.Verify(ctx, w.pool); err != nil {
		w.started.Store(false)
		return err
	}
	if _, err := EnsurePartitions(ctx, w.pool); err != nil {
		// Not fatal: a settle that finds no partition makes it then.
		w.log.warn("jobs.worker.partitions", "error", err)
	}
	base := context.WithoutCancel(ctx)
	loopCtx, cancel := context.WithCancel(base)
	hbCtx, hbCancel := context.WithCancel(base)
	w.stopFn, w.hbStop = cancel, hbCancel
	w.announce(ctx)
	w.fetching.Add(1)
	w.loops.Add(1)
	go w.fetchLoop(loopCtx)
	go w.heartbeatLoop(hbCtx)
	if w.wakes() {
		w.loops.Add(1)
		go w.listenLoop(loopCtx)
	}
	w.log.info("jobs.worker.started", "queues", w.queues)
	w.warnPooledWake()
	w.warnUnserved()
	return nil
}

func (w *Worker) cancelHeld(cause error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, h := range w.held {
		h.cancel(cause)
	}
}

func (w *Worker) hold(h *heldRun) {
	w.mu.Lock()
	w.held[h.row.id] = h
	w.mu.Unlock()
}

// release frees a run's slot and lets the fetch loop know.
func (w *Worker) release(row *claimed) {
	w.mu.Lock()
	delete(w.held, row.id)
	delete(w.owned, row.id)
	w.inFlight[row.queue]--
	w.total--
	if row.tenantHeld {
		if w.tenants[row.tenant]--; w.tenants[row.tenant] == 0 {
			delete(w.tenants, row.tenant)
		}
	}
	w.mu.Unlock()
	select {
	case w.slotFree <- struct{}{}:
	default:
	}
}

func (w *Worker) heldRuns() []*heldRun {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]*heldRun, 0, len(w.held))
	for _, h := range w.held {
		out = append(out, h)
	}
	return out
}

// fencedIdleFloor is the least a fenced transaction may sit idle before the
// server ends it: a short lease (a test's) must not cut off a live batch
// that a busy machine paused.
const fencedIdleFloor = 5 * time.Second

func fencedIdleLimit(lease time.Duration) time.Duration { return max(lease, fencedIdleFloor) }
