package jobbench

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/bench/benchcpu"
	"github.com/pipekit/pipe/pipeline"
)

// input is every bench job's input: I numbers the job, and is its key.
type input struct {
	I int `json:"i"`
}

// none is every bench job's result.
type none struct{}

func inputKey(in input) string { return strconv.Itoa(in.I) }

type benchJob = pipeline.Job[input, none]

func (b *bench) declare(name string, body pipeline.Body[input, none]) (*benchJob, error) {
	return pipeline.NewJob(name, inputKey, body, pipeline.JobOptions[input, none]{Queue: b.o.Queue})
}

// worker answers a stopped worker serving the bench queue with slots.
func (b *bench) worker(job pipeline.Registrable, slots int) (*pipeline.Worker, error) {
	return b.workerOn(b.pool, job, slots)
}

// workerOn answers a stopped worker over pool serving the bench queue.
func (b *bench) workerOn(pool *pgxpool.Pool, job pipeline.Registrable, slots int) (*pipeline.Worker, error) {
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return nil, err
	}
	return pipeline.NewWorker(pool, pipeline.WorkerConfig{
		Registry:      reg,
		Queues:        map[string]int{b.o.Queue: slots},
		FetchCooldown: b.o.FetchCooldown,
		PollInterval:  b.o.PollInterval,
		ID:            fmt.Sprintf("pipe-bench-%d", os.Getpid()),
		Logger:        b.o.Logger,
	})
}

// defaultWorker answers a stopped worker over the bench's pool with pipe
// worker's defaults: the job's queue and its slots, poll, idle poll and
// fetch cooldown are the pipeline's own.
func (b *bench) defaultWorker(job pipeline.Registrable) (*pipeline.Worker, error) {
	return b.defaultWorkerOn(b.pool, job)
}

// defaultWorkerOn is defaultWorker over pool.
func (b *bench) defaultWorkerOn(pool *pgxpool.Pool, job pipeline.Registrable) (*pipeline.Worker, error) {
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return nil, err
	}
	return pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg,
		ID: fmt.Sprintf("pipe-bench-%d", os.Getpid()), Logger: b.o.Logger})
}

// started starts w and answers a stop function that is safe to call twice.
func (b *bench) started(ctx context.Context, w *pipeline.Worker) (func() error, error) {
	if err := w.Start(ctx); err != nil {
		return nil, err
	}
	var once sync.Once
	var err error
	return func() error {
		once.Do(func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			err = w.Stop(sctx)
		})
		return err
	}, nil
}

// enqueueAll enqueues jobs numbered 1..n in EnqueueMany batches.
func (b *bench) enqueueAll(ctx context.Context, job *benchJob, n int) error {
	batch := make([]input, 0, b.o.BatchSize)
	for lo := 0; lo < n; lo += b.o.BatchSize {
		batch = batch[:0]
		for i := lo; i < min(lo+b.o.BatchSize, n); i++ {
			batch = append(batch, input{I: i + 1})
		}
		res, err := job.EnqueueMany(ctx, b.pool, batch)
		if err != nil {
			return err
		}
		for _, r := range res {
			if r.Deduped {
				return fmt.Errorf("enqueue: job %s deduped: a live row of the bench's name was left", r.ID)
			}
		}
	}
	return nil
}

// enqueueMany times EnqueueMany of N jobs with distinct keys.
func (b *bench) enqueueMany(ctx context.Context, name string) (Figure, error) {
	job, err := b.declare(name, func(context.Context, *pipeline.Run[input]) (none, error) { return none{}, nil })
	if err != nil {
		return Figure{}, err
	}
	t0 := time.Now()
	if err := b.enqueueAll(ctx, job, b.o.N); err != nil {
		return Figure{}, err
	}
	d := time.Since(t0)
	var rows int
	if err := b.pool.QueryRow(ctx, `select count(*) from pipe.jobs where name = $1`, name).Scan(&rows); err != nil {
		return Figure{}, err
	}
	if rows != b.o.N {
		return Figure{}, fmt.Errorf("%d rows after enqueueing %d", rows, b.o.N)
	}
	f := Figure{Count: b.o.N, Elapsed: d, Rate: perSecond(b.o.N, d)}
	f.Line = fmt.Sprintf("enqueue-many: %.0f jobs/s (%d jobs, batches of %d, distinct keys)", f.Rate, b.o.N, b.o.BatchSize)
	return f, nil
}

// work enqueues N no-op jobs (not timed), then times a worker from its
// start until every body has run — counted in process, as River's bench
// counts — and, separately, until every completion has landed.
func (b *bench) work(ctx context.Context, name string) (Figure, error) {
	var worked atomic.Int64
	job, err := b.declare(name, func(context.Context, *pipeline.Run[input]) (none, error) {
		worked.Add(1)
		return none{}, nil
	})
	if err != nil {
		return Figure{}, err
	}
	if err := b.enqueueAll(ctx, job, b.o.N); err != nil {
		return Figure{}, err
	}
	w, err := b.worker(job, b.o.Slots)
	if err != nil {
		return Figure{}, err
	}
	target := int64(b.o.N)
	cpu := benchcpu.NewMeter(b.pool)
	proc0, db0 := cpu.Read(ctx)
	t0 := time.Now()
	stop, err := b.started(ctx, w)
	if err != nil {
		return Figure{}, err
	}
	defer func() { _ = stop() }()
	if err := b.waitFor(ctx, "bodies run", worked.Load, target); err != nil {
		return Figure{}, err
	}
	d := time.Since(t0)
	if err := b.waitFor(ctx, "completions landed", w.Stats().Completed.Load, target); err != nil {
		return Figure{}, err
	}
	settled := time.Since(t0)
	proc1, db1 := cpu.Read(ctx)
	if err := stop(); err != nil {
		return Figure{}, err
	}
	done, err := b.countDone(ctx, name)
	if err != nil {
		return Figure{}, err
	}
	if done != b.o.N {
		return Figure{}, fmt.Errorf("%d of %d rows are done after the worker stopped", done, b.o.N)
	}
	f := Figure{Count: b.o.N, Elapsed: d, Rate: perSecond(b.o.N, d), SettledRate: perSecond(b.o.N, settled),
		CPU: cpuPerItem(proc1-proc0, db1-db0, b.o.N, cpu.Known())}
	f.Line = fmt.Sprintf("work: %.0f jobs/s (%d no-op jobs, journal on, %d slots; %.0f jobs/s until the last completion landed); %s",
		f.Rate, b.o.N, b.o.Slots, f.SettledRate, f.CPU.line("job"))
	return f, nil
}

// stepNames are the steps of one steps-figure body.
var stepNames = []string{"one", "two", "three"}

func noopStep(context.Context) (int, error) { return 1, nil }

// steps times StepJobs durable jobs of three no-op steps, StepConcurrency at
// a time, from the first enqueue (which the timing includes, as DBOS's
// anchor includes starting its workflows) until every completion landed.
func (b *bench) steps(ctx context.Context, name string) (Figure, error) {
	job, err := b.declare(name, func(ctx context.Context, _ *pipeline.Run[input]) (none, error) {
		for _, s := range stepNames {
			if _, err := pipeline.Step(ctx, s, noopStep); err != nil {
				return none{}, err
			}
		}
		return none{}, nil
	})
	if err != nil {
		return Figure{}, err
	}
	w, err := b.worker(job, b.o.StepConcurrency)
	if err != nil {
		return Figure{}, err
	}
	stop, err := b.started(ctx, w)
	if err != nil {
		return Figure{}, err
	}
	defer func() { _ = stop() }()
	m := b.o.StepJobs
	t0 := time.Now()
	if err := b.enqueueAll(ctx, job, m); err != nil {
		return Figure{}, err
	}
	if err := b.waitFor(ctx, "runs completed", w.Stats().Completed.Load, int64(m)); err != nil {
		return Figure{}, err
	}
	d := time.Since(t0)
	if err := stop(); err != nil {
		return Figure{}, err
	}
	if s := w.Stats(); s.Retried.Load()+s.DeadLettered.Load()+s.Failed.Load()+s.Unowned.Load() > 0 {
		return Figure{}, fmt.Errorf("runs did not all succeed at once: %d retried, %d dead, %d failed, %d unowned",
			s.Retried.Load(), s.DeadLettered.Load(), s.Failed.Load(), s.Unowned.Load())
	}
	var done, journaled int
	err = b.pool.QueryRow(ctx, `
		select (select count(*) from pipe.jobs where name = $1 and state = 'done'),
		       (select count(*) from pipe.events e join pipe.jobs j on j.id = e.job_id
		        where j.name = $1 and e.kind = 'step.completed')`, name).Scan(&done, &journaled)
	if err != nil {
		return Figure{}, err
	}
	if done != m || journaled != len(stepNames)*m {
		return Figure{}, fmt.Errorf("%d of %d runs done and %d of %d steps journaled", done, m, journaled, len(stepNames)*m)
	}
	n := len(stepNames) * m
	f := Figure{Count: n, Elapsed: d, Rate: perSecond(n, d), RunsRate: perSecond(m, d)}
	f.Line = fmt.Sprintf("steps: %.0f steps/s, %.0f runs/s (%d durable jobs of %d steps, %d concurrent, enqueue included)",
		f.Rate, f.RunsRate, m, len(stepNames), b.o.StepConcurrency)
	return f, nil
}

// bodyStart is one body start a pickup figure saw.
type bodyStart struct {
	i  int
	at time.Time
}

// enqueuer enqueues job i and answers the wall-clock instant taken just
// before the enqueue began.
type enqueuer interface {
	enqueue(ctx context.Context, i int) (time.Time, error)
	close() error
}

type localEnqueuer struct {
	b   *bench
	job *benchJob
}

func (l localEnqueuer) enqueue(ctx context.Context, i int) (time.Time, error) {
	t0 := time.Now()
	_, err := l.job.Enqueue(ctx, l.b.pool, input{I: i})
	return t0, err
}

func (localEnqueuer) close() error { return nil }

// pickup times, on an idle worker, each of PickupSamples jobs from just
// before its enqueue to the start of its body, PickupGap apart: riverbench
// -mode latency's protocol. crossProcess enqueues from a helper process.
func (b *bench) pickup(ctx context.Context, name string, crossProcess bool) (Figure, error) {
	return b.pickupWith(ctx, name, crossProcess, false)
}

// pickupWith is pickup, on a worker and a wake throttle at pipe worker's
// defaults when defaults is set, else at River's bench settings.
func (b *bench) pickupWith(ctx context.Context, name string, crossProcess, defaults bool) (Figure, error) {
	starts := make(chan bodyStart, 2*b.o.PickupSamples+16)
	job, err := b.declare(name, func(_ context.Context, run *pipeline.Run[input]) (none, error) {
		select {
		case starts <- bodyStart{i: run.Input.I, at: time.Now()}:
		default:
		}
		return none{}, nil
	})
	if err != nil {
		return Figure{}, err
	}
	// The window is the process's, per queue: set it either way, so that no
	// figure run before this one leaves its own.
	window := b.o.WakeThrottle
	if defaults {
		window = pipeline.DefaultWakeThrottle
	}
	job.SetWakeThrottle(window)
	var enq enqueuer = localEnqueuer{b: b, job: job}
	if crossProcess {
		if enq, err = startHelper(ctx, b.pool, name, b.o); err != nil {
			return Figure{}, err
		}
	}
	defer func() { _ = enq.close() }()
	w, err := b.worker(job, b.o.Slots)
	if defaults {
		w, err = b.defaultWorker(job)
	}
	if err != nil {
		return Figure{}, err
	}
	stop, err := b.started(ctx, w)
	if err != nil {
		return Figure{}, err
	}
	defer func() { _ = stop() }()
	if err := sleep(ctx, 500*time.Millisecond); err != nil { // as riverbench: let the worker settle idle
		return Figure{}, err
	}
	gap := b.o.PickupGap
	if defaults {
		gap = max(gap, idleGap) // each enqueue finds the worker idle and the throttle open
	}
	lat, err := samplePickups(ctx, enq, starts, 1, b.o.PickupSamples, gap)
	if err != nil {
		return Figure{}, err
	}
	var trickle []time.Duration
	if defaults {
		if trickle, err = samplePickups(ctx, enq, starts, 1+b.o.PickupSamples, b.o.PickupSamples, b.o.PickupGap); err != nil {
			return Figure{}, err
		}
	}
	if err := stop(); err != nil {
		return Figure{}, err
	}
	if err := enq.close(); err != nil {
		return Figure{}, err
	}
	f := Figure{Samples: len(lat), Median: lat[len(lat)/2], P90: lat[len(lat)*9/10], Max: lat[len(lat)-1]}
	where := "same process"
	figure := FigurePickup
	if crossProcess {
		where, figure = "enqueued by another process", FigurePickupProcess
	}
	f.Line = fmt.Sprintf("%s: median %s p90 %s max %s (%s, n=%d; idle worker, wake throttle %v, fetch cooldown %v, poll %v as River's bench)",
		figure, ms(f.Median), ms(f.P90), ms(f.Max), where, f.Samples, b.o.WakeThrottle, b.o.FetchCooldown, b.o.PollInterval)
	if defaults {
		f.TrickleMedian, f.TrickleP90, f.TrickleMax = trickle[len(trickle)/2], trickle[len(trickle)*9/10], trickle[len(trickle)-1]
		f.Line = fmt.Sprintf("%s: median %s p90 %s max %s (same process, n=%d, %v apart: an idle worker, woken; worker and wake throttle at pipe worker's defaults); "+
			"%v apart, where the %v wake throttle keeps a wake silent and the run waits for the worker's next pass: median %s p90 %s max %s",
			FigurePickupDefaults, ms(f.Median), ms(f.P90), ms(f.Max), f.Samples, gap, b.o.PickupGap, pipeline.DefaultWakeThrottle,
			ms(f.TrickleMedian), ms(f.TrickleP90), ms(f.TrickleMax))
	}
	return f, nil
}

// idleGap spaces the pickup-defaults samples past the default wake
// throttle's window, so that each enqueue wakes the idle worker.
const idleGap = pipeline.DefaultWakeThrottle + 50*time.Millisecond

// samplePickups times n pickups of jobs numbered from first, gap apart
// (each enqueued once the one before started), and answers them sorted.
func samplePickups(ctx context.Context, enq enqueuer, starts <-chan bodyStart, first, n int, gap time.Duration) ([]time.Duration, error) {
	lat := make([]time.Duration, 0, n)
	for i := first; i < first+n; i++ {
		t0, err := enq.enqueue(ctx, i)
		if err != nil {
			return nil, err
		}
		s, err := awaitStart(ctx, starts, i)
		if err != nil {
			return nil, err
		}
		lat = append(lat, s.Sub(t0))
		if err := sleep(ctx, gap); err != nil {
			return nil, err
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat, nil
}

// awaitStart waits for job i's body to start.
func awaitStart(ctx context.Context, starts <-chan bodyStart, i int) (time.Time, error) {
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	for {
		select {
		case s := <-starts:
			if s.i == i {
				return s.at, nil
			}
		case <-timeout.C:
			return time.Time{}, fmt.Errorf("job %d did not start within 10s of its enqueue", i)
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
